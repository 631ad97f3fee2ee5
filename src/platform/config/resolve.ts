import { parseConfigJson } from "../config-file.js";
import { resolveModelConfig, type ModelSettings, type OllamaProbe } from "./model.js";
import { approvalModeSchema, priceMapSchema, type ApprovalMode, type PriceMap } from "./schema.js";
import { resolveMemoryConfig, type MemorySettings } from "./memory-settings.js";
import { resolveDiagnosticsConfig, type DiagnosticsSettings } from "./diagnostics-settings.js";
import { ConfigError, envValue, loadConfigFiles, presentLayers, type ConfigFiles } from "./sources.js";
import { flagLabel, wholeNumber, type ConfigFlags, type FlagSource } from "./values.js";

/**
 * The one configuration resolver. Every setting is taken from the first of these that sets it:
 *
 *   flags (command line, or a LangGraph run's configurable settings)
 *   > environment variables
 *   > `<workspace>/mini-cursor.json`
 *   > the user config (`$XDG_CONFIG_HOME/mini-cursor/config.json`, default `~/.config/mini-cursor/config.json`)
 *   > defaults
 *
 * Rule lists (`commands.allow` / `commands.deny`) add up instead: the user's rules, then the project's. Not every
 * setting has every form (model settings have no file form; the rules have no flag or variable). Every problem is a
 * ConfigError whose message starts with the flag, variable or file it comes from.
 */

/** The approval policy settings (src/safety/config.ts turns them into a SafetyPolicy, src/core/approval.ts). */
export interface SafetySettings {
  approval: ApprovalMode;
  approveFileChanges: boolean;
  /** Command patterns that run without asking: user rules, then project rules. */
  allow: string[];
  /** Command patterns that never run: user rules, then project rules. */
  deny: string[];
  allowNetwork: boolean;
}

/** One source of prices; src/models/cost/price-config.ts builds the price table from these, first match wins. */
export interface PriceLayer {
  /** The variable or file the prices come from, named in reports. */
  source: string;
  prices: PriceMap;
}

export {
  resolveEmbeddingConfig,
  resolveMemoryConfig,
  resolveMemoryStoreConfig,
  type EmbeddingSettings,
  type MemorySettings,
  type MemoryStoreSettings,
} from "./memory-settings.js";

/** Limits that can be set outside the `run` flags; absent means the graph's default. */
export interface LimitSettings {
  maxPromptTokens?: number;
}

export interface ResolvedConfig {
  /** The config files that were consulted (contents null when there is no such file). */
  files: ConfigFiles;
  model: ModelSettings;
  safety: SafetySettings;
  /** Highest priority first: MINI_CURSOR_PRICES, the project file, the user file. */
  prices: PriceLayer[];
  memory: MemorySettings;
  limits: LimitSettings;
  sandbox: SandboxSettings;
  /** Problems after edits (src/platform/config/diagnostics-settings.ts); resolved here so a bad value stops before any session. */
  diagnostics: DiagnosticsSettings;
}

export interface ResolveConfigOptions {
  flags?: ConfigFlags;
  /** How to name flags in errors (default: as command-line flags). */
  flagSource?: FlagSource;
  env: NodeJS.ProcessEnv;
  /** The workspace whose `mini-cursor.json` applies; without one only the user config is read. */
  workspace?: string;
  /** Asks a local Ollama for its models when no endpoint is configured (src/models/ollama-probe.ts). */
  probeOllama: OllamaProbe;
}

const APPROVAL_CHOICES = "ask, auto or read-only";

function approvalMode(value: string, from: string): ApprovalMode {
  const parsed = approvalModeSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${from} must be ${APPROVAL_CHOICES}, got "${value}"`);
  return parsed.data;
}

function booleanFlag(flags: ConfigFlags, key: "approveFileChanges" | "allowNetwork", source: FlagSource): boolean | undefined {
  const value: unknown = flags[key];
  if (value === undefined || typeof value === "boolean") return value;
  throw new ConfigError(`${flagLabel(key, source)} must be true or false, got ${JSON.stringify(value)}`);
}

export function resolveSafetyConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv, files: ConfigFiles, flagSource: FlagSource = "cli"): SafetySettings {
  const layers = presentLayers(files).map((l) => l.contents);
  const fromFiles = <K extends "approval" | "approveFileChanges" | "network">(key: K) => layers.find((c) => c[key] !== undefined)?.[key];
  const flagMode = flags.approval;
  const envMode = envValue(env, "MINI_CURSOR_APPROVAL");
  const approval =
    flagMode !== undefined
      ? approvalMode(flagMode, flagLabel("approval", flagSource))
      : envMode !== undefined
        ? approvalMode(envMode, "MINI_CURSOR_APPROVAL")
        : (fromFiles("approval") ?? "ask");
  // Rules add up: the user's first, then the project's.
  const ordered = [files.user.contents, files.project?.contents];
  return {
    approval,
    approveFileChanges: booleanFlag(flags, "approveFileChanges", flagSource) ?? fromFiles("approveFileChanges") ?? false,
    allow: ordered.flatMap((c) => c?.commands?.allow ?? []),
    deny: ordered.flatMap((c) => c?.commands?.deny ?? []),
    allowNetwork: booleanFlag(flags, "allowNetwork", flagSource) ?? fromFiles("network") ?? false,
  };
}

export function resolvePriceConfig(env: NodeJS.ProcessEnv, files: ConfigFiles): PriceLayer[] {
  const layers: PriceLayer[] = [];
  const fromEnv = envValue(env, "MINI_CURSOR_PRICES");
  if (fromEnv) layers.push({ source: "MINI_CURSOR_PRICES", prices: parseConfigJson("MINI_CURSOR_PRICES", fromEnv, priceMapSchema) });
  for (const layer of presentLayers(files)) {
    if (layer.contents.prices) layers.push({ source: layer.path, prices: layer.contents.prices });
  }
  return layers;
}

export function resolveLimitsConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv, flagSource: FlagSource = "cli"): LimitSettings {
  const budget =
    flags.contextBudget !== undefined
      ? wholeNumber(flags.contextBudget, flagLabel("contextBudget", flagSource), 1)
      : wholeNumber(envValue(env, "MINI_CURSOR_CONTEXT_BUDGET"), "MINI_CURSOR_CONTEXT_BUDGET", 1);
  return budget === undefined ? {} : { maxPromptTokens: budget };
}

/** Whether commands may use the bubblewrap sandbox: `MINI_CURSOR_SANDBOX=off` opts out (every command then asks). */
export interface SandboxSettings {
  off: boolean;
}

export function resolveSandboxConfig(env: NodeJS.ProcessEnv): SandboxSettings {
  return { off: envValue(env, "MINI_CURSOR_SANDBOX") === "off" };
}

/** Everything but the model endpoint: no network, only files and variables. */
export function resolveConfigExceptModel(o: Omit<ResolveConfigOptions, "probeOllama">): Omit<ResolvedConfig, "model"> {
  const flags = o.flags ?? {};
  const flagSource = o.flagSource ?? "cli";
  const files = loadConfigFiles(o.env, o.workspace);
  return {
    files,
    safety: resolveSafetyConfig(flags, o.env, files, flagSource),
    prices: resolvePriceConfig(o.env, files),
    memory: resolveMemoryConfig(o.env),
    limits: resolveLimitsConfig(flags, o.env, flagSource),
    sandbox: resolveSandboxConfig(o.env),
    diagnostics: resolveDiagnosticsConfig(files, o.env),
  };
}

/** Every setting of a session, validated. Throws ConfigError naming the flag, variable or file at fault. */
export async function resolveConfig(o: ResolveConfigOptions): Promise<ResolvedConfig> {
  const rest = resolveConfigExceptModel(o);
  const model = await resolveModelConfig(o.flags ?? {}, o.env, o.probeOllama, o.flagSource ?? "cli");
  return { ...rest, model };
}
