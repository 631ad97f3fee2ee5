import type { Limits } from "../../../core/index.js";
import type { Budget } from "../../../models/cost/budget.js";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { BUDGET_OPTIONS, parseBudgetFlags } from "../budget-setup.js";
import { commandTimeoutFlag, limitFlags, safetyFlags, SETTING_OPTIONS } from "../session-settings.js";
import { taskFrom } from "../task-input.js";
import { DEFAULT_COMMAND_TIMEOUT_MS } from "../../../host/stored-options.js";

export const RUN_OPTIONS = {
  ...COMMON_OPTIONS,
  ...MODEL_OPTIONS,
  ...SETTING_OPTIONS,
  "task-file": { type: "string" },
  force: { type: "boolean" },
  worktree: { type: "boolean" },
  ...BUDGET_OPTIONS,
} as const;

export type RunValues = ReturnType<typeof parse<typeof RUN_OPTIONS>>["values"];

/** What `run`'s command line says, read and checked; undefined for `--help`. */
export interface RunArgs {
  values: RunValues;
  task: string;
  /** The limits given as flags (only those given). */
  given: Partial<Limits>;
  commandTimeoutMs: number;
  budget: Budget;
  workspace: string;
}

/**
 * Reads `run`'s command line and checks everything that needs neither the configuration nor the session host: the
 * flags, the task, the numbers, the approval mode, the workspace. app.ts calls it before it loads the run module
 * (the session host and what it imports take about a second), so a mistyped command line is answered at once; the
 * run module reads it again, from the same code. Throws a UsageError (one line, exit 2).
 */
export function readRunArgs(argv: string[], cwd: string): RunArgs | undefined {
  const { values, positionals } = parse(argv, RUN_OPTIONS);
  if (values.help) return undefined;
  const task = taskFrom(positionals, values["task-file"], cwd);
  const given = limitFlags(values);
  const commandTimeoutMs = commandTimeoutFlag(values) ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const budget = parseBudgetFlags(values);
  // The same checks the configuration makes of these flags later (a bad --approval, both forms of a switch).
  safetyFlags(values);
  const workspace = resolveWorkspace(values.workspace, cwd);
  return { values, task, given, commandTimeoutMs, budget, workspace };
}
