import { ConfigError } from "./sources.js";
import type { ConfigFlags, FlagSource } from "./values.js";

const TEXT_KEYS = ["model", "baseUrl", "apiKey", "plannerModel", "researcherModel", "coderModel", "reviewerModel", "approval"] as const;
const BOOLEAN_KEYS = ["approveFileChanges", "allowNetwork"] as const;

/** What a LangGraph run's configurable settings contribute to resolveConfig. */
export interface RunConfigInput {
  /** `configurable.workspace`, when set. */
  workspace?: string;
  flags: ConfigFlags;
  flagSource: FlagSource;
}

/**
 * Maps a LangGraph run's configurable settings (`{ workspace, model, baseUrl, apiKey, plannerModel, researcherModel,
 * coderModel, reviewerModel, approval, approveFileChanges, allowNetwork, contextBudget }`) to the resolver's flags, so a
 * Studio or API run resolves its settings exactly like the CLI: `resolveConfig({ ...flagsFromRunConfig(c), env, probeOllama })`.
 * Empty text counts as unset (forms send ""); other keys (thread_id, checkpoint_ns, ...) are ignored; a value of the
 * wrong type is a ConfigError naming `configurable.<key>`.
 */
export function flagsFromRunConfig(configurable: Readonly<Record<string, unknown>> | undefined): RunConfigInput {
  const c = configurable ?? {};
  const flags: ConfigFlags = {};
  const text = (key: string): string | undefined => {
    const value = c[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw new ConfigError(`configurable.${key} must be text, got ${JSON.stringify(value)}`);
    return value.trim() === "" ? undefined : value;
  };
  for (const key of TEXT_KEYS) {
    const value = text(key);
    if (value !== undefined) flags[key] = value;
  }
  for (const key of BOOLEAN_KEYS) {
    const value = c[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "boolean") throw new ConfigError(`configurable.${key} must be true or false, got ${JSON.stringify(value)}`);
    flags[key] = value;
  }
  const budget = c.contextBudget;
  if (typeof budget === "number") flags.contextBudget = budget;
  else {
    const value = text("contextBudget");
    if (value !== undefined) flags.contextBudget = value;
  }
  const workspace = text("workspace");
  return { ...(workspace !== undefined ? { workspace } : {}), flags, flagSource: "configurable" };
}
