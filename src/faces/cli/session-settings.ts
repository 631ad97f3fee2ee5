import { approvalModeSchema, type Limits, type SafetyPolicy } from "../../core/index.js";
import { positiveInt } from "./args.js";
import { UsageError } from "./exit-codes.js";

/** The flags `run` and `resume` share: the settings a session keeps and `resume` may change. */
export const SETTING_OPTIONS = {
  "max-steps": { type: "string" },
  "max-revisions": { type: "string" },
  "max-review-rounds": { type: "string" },
  "max-model-calls": { type: "string" },
  "max-questions": { type: "string" },
  "command-timeout": { type: "string" },
  "context-budget": { type: "string" },
  approval: { type: "string" },
  "approve-file-changes": { type: "boolean" },
  "no-approve-file-changes": { type: "boolean" },
  "allow-network": { type: "boolean" },
  "no-allow-network": { type: "boolean" },
} as const;

export interface SettingFlags {
  "max-steps"?: string;
  "max-revisions"?: string;
  "max-review-rounds"?: string;
  "max-model-calls"?: string;
  "max-questions"?: string;
  "command-timeout"?: string;
  "context-budget"?: string;
  approval?: string;
  "approve-file-changes"?: boolean;
  "no-approve-file-changes"?: boolean;
  "allow-network"?: boolean;
  "no-allow-network"?: boolean;
}

/**
 * A switch and its `--no-` form: true, false, or undefined when neither is given (the config or the session decides).
 * Both at once is a mistake, not a last-one-wins.
 */
export function switchFlag(values: SettingFlags, name: "approve-file-changes" | "allow-network"): boolean | undefined {
  const on = values[name] === true;
  const off = values[`no-${name}`] === true;
  if (on && off) throw new UsageError(`--${name} and --no-${name} contradict each other; give one`);
  return on ? true : off ? false : undefined;
}

/** The limits given as flags (only those given). */
export function limitFlags(values: SettingFlags): Partial<Limits> {
  const limits: Partial<Limits> = {};
  const set = (key: keyof Limits, flag: keyof SettingFlags & string) => {
    const value = values[flag] as string | undefined;
    const n = key === "maxQuestions" ? wholeNumber(value, `--${flag}`) : positiveInt(value, `--${flag}`);
    if (n !== undefined) limits[key] = n;
  };
  set("maxAgentRuns", "max-steps");
  set("maxPlanRevisions", "max-revisions");
  set("maxReviewRounds", "max-review-rounds");
  set("maxModelCallsPerRun", "max-model-calls");
  set("maxPromptTokens", "context-budget");
  set("maxQuestions", "max-questions");
  return limits;
}

/** A whole number, 0 included: `--max-questions 0` means never ask (CI, scripts). */
function wholeNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${flag} must be a whole number (0 or more), got "${value}"`);
  return Number(value);
}

export function commandTimeoutFlag(values: SettingFlags): number | undefined {
  const seconds = positiveInt(values["command-timeout"], "--command-timeout");
  return seconds === undefined ? undefined : seconds * 1000;
}

/** The safety settings given as flags (only those given); the switches turn on, their `--no-` forms off. */
export function safetyFlags(values: SettingFlags): Partial<SafetyPolicy> {
  const safety: Partial<SafetyPolicy> = {};
  if (values.approval !== undefined) {
    const mode = approvalModeSchema.safeParse(values.approval);
    if (!mode.success) throw new UsageError(`--approval must be ask, auto or read-only, got "${values.approval}"`);
    safety.approval = mode.data;
  }
  const approveFileChanges = switchFlag(values, "approve-file-changes");
  if (approveFileChanges !== undefined) safety.approveFileChanges = approveFileChanges;
  const allowNetwork = switchFlag(values, "allow-network");
  if (allowNetwork !== undefined) safety.allowNetwork = allowNetwork;
  return safety;
}

const LIMIT_NAMES: Record<keyof Limits, string> = {
  maxAgentRuns: "max steps",
  maxPlanRevisions: "max revisions",
  maxReviewRounds: "max review rounds",
  maxModelCallsPerRun: "max model calls",
  maxPromptTokens: "context budget",
  maxQuestions: "max questions",
};

const onOff = (value: boolean) => (value ? "on" : "off");

/** One line per setting that changes, e.g. "approval: ask → auto for the rest of the session". */
export function describeChanges(before: { limits: Limits; safety: SafetyPolicy; commandTimeoutMs: number }, after: typeof before): string[] {
  const lines: string[] = [];
  const changed = (name: string, from: string, to: string) => {
    if (from !== to) lines.push(`${name}: ${from} → ${to} for the rest of the session`);
  };
  changed("approval", before.safety.approval, after.safety.approval);
  changed("approve file changes", onOff(before.safety.approveFileChanges), onOff(after.safety.approveFileChanges));
  changed("network for commands", onOff(before.safety.allowNetwork), onOff(after.safety.allowNetwork));
  for (const key of Object.keys(LIMIT_NAMES) as (keyof Limits)[]) changed(LIMIT_NAMES[key], String(before.limits[key]), String(after.limits[key]));
  changed("command timeout", `${before.commandTimeoutMs / 1000}s`, `${after.commandTimeoutMs / 1000}s`);
  return lines;
}
