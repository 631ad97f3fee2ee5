import type { DiagnosticsCommand, DiagnosticsSettings } from "../../platform/config/index.js";
import { sandboxSpawnOptions, type SandboxSpawnOptions } from "../../safety/sandbox/sandboxed-command.js";
import type { CommandSandbox } from "../../safety/sandbox/types.js";
import { buildCommandEnv } from "../commands/command-env.js";
import { commandApplies, runDiagnosticsCommand, type CommandOutcome } from "./custom-commands.js";
import { ESLINT_EXTENSIONS, projectHasEslint, runEslint } from "./eslint.js";
import { formatProblems, newProblems, type Problem } from "./problems.js";
import { TsService, type TsOutcome } from "./ts-service.js";

/** What write_file and edit_file (and the reviewer's project_diagnostics) ask; one per session, for any workspace. */
export interface Diagnostics {
  /**
   * The problems a change to `file` (relative) introduced, as lines for the tool result; "" when nothing broke.
   * `before`: the file's text before the change (null: it is new; undefined: not known). Never throws.
   */
  afterEdit(root: string, change: { file: string; before: string | null | undefined }, signal?: AbortSignal): Promise<string>;
  /** Every problem of the project, as a tool result. Never throws. */
  project(root: string, signal?: AbortSignal): Promise<string>;
  /** Stops the language services (with the session). */
  close(): void;
}

export interface DiagnosticsHubOptions {
  settings: DiagnosticsSettings;
  /** The session's command sandbox: without bubblewrap no checker runs (they run the project's own code). */
  sandbox: CommandSandbox | undefined;
  /** The environment secrets are filtered from; this process's by default. */
  parentEnv?: NodeJS.ProcessEnv;
}

const TS_FILE = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;
/** The whole project gets this many times an edit's time box. */
const PROJECT_TIMEOUT_FACTOR = 4;

interface CheckResult {
  problems: Problem[];
  notes: string[];
}

interface Workspace {
  ts: TsService;
  sandbox: SandboxSpawnOptions;
  eslint: boolean;
  /** The problems each (checker, file) had at its last run, for ESLint and the configured commands. */
  baselines: Map<string, Problem[]>;
  /** Notes said once per session (TypeScript missing, ...). */
  said: Set<string>;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function createDiagnosticsHub(o: DiagnosticsHubOptions): Diagnostics {
  const { settings } = o;
  const env = buildCommandEnv(o.parentEnv ?? process.env);
  const workspaces = new Map<string, Workspace>();
  let saidNoSandbox = false;

  const workspaceFor = (root: string): Workspace | undefined => {
    const sandbox = sandboxSpawnOptions(root, o.sandbox);
    if (!sandbox) return undefined;
    let ws = workspaces.get(root);
    if (!ws) {
      ws = { ts: new TsService({ root, sandbox, env }), sandbox, eslint: projectHasEslint(root), baselines: new Map(), said: new Set() };
      workspaces.set(root, ws);
    }
    return ws;
  };
  const once = (ws: Workspace, note: string): string[] => {
    if (ws.said.has(note)) return [];
    ws.said.add(note);
    return [note];
  };

  const fromTs = (ws: Workspace, outcome: TsOutcome, timeoutMs: number): CheckResult => {
    if (outcome.kind === "problems") return { problems: outcome.problems, notes: [] };
    if (outcome.kind === "unavailable") return { problems: [], notes: once(ws, `Note: no TypeScript diagnostics: ${outcome.reason}.`) };
    if (outcome.kind === "timeout")
      return {
        problems: [],
        notes: [`Note: the TypeScript check took longer than ${seconds(timeoutMs)} and was skipped for this change (the change itself is done).`],
      };
    return { problems: [], notes: [`Note: the TypeScript check failed (${outcome.reason}).`] };
  };
  /** ESLint's and the commands' new problems against their last run on the same file (none yet: all of them). */
  const againstBaseline = (ws: Workspace, key: string, label: string, outcome: CommandOutcome, timeoutMs: number): CheckResult => {
    if (outcome.kind === "timeout") return { problems: [], notes: [`Note: ${label} took longer than ${seconds(timeoutMs)} and was skipped for this change.`] };
    if (outcome.kind === "failed") return { problems: [], notes: [`Note: ${label} failed (${outcome.reason}).`] };
    const before = ws.baselines.get(key);
    ws.baselines.set(key, outcome.problems);
    if (before) return { problems: newProblems(before, outcome.problems), notes: [] };
    const notes = outcome.problems.length > 0 ? [`Note: first ${label} run on this file: its problems from before this change are included.`] : [];
    return { problems: outcome.problems, notes };
  };

  const commandsFor = (file: string): DiagnosticsCommand[] => settings.commands.filter((c) => commandApplies(c, file));
  const render = (heading: string, results: CheckResult[], max: number): string => {
    const problems = results.flatMap((r) => r.problems);
    const notes = results.flatMap((r) => r.notes);
    const lines =
      problems.length > 0
        ? [heading.replace("{n}", `${problems.length} new problem${problems.length === 1 ? "" : "s"}`), ...formatProblems(problems, max)]
        : [];
    return [...lines, ...notes].join("\n");
  };

  return {
    async afterEdit(root, change, signal) {
      if (!settings.enabled) return "";
      const ws = workspaceFor(root);
      if (!ws) {
        if (saidNoSandbox) return "";
        saidNoSandbox = true;
        return "Note: no diagnostics after edits: the project's checkers run only in the sandbox, and there is none (see mini-cursor doctor).";
      }
      const timeoutMs = settings.timeoutMs;
      const run = { sandbox: ws.sandbox, env, timeoutMs, ...(signal ? { signal } : {}) };
      const checks: Promise<CheckResult>[] = [];
      if (settings.typescript && TS_FILE.test(change.file)) {
        checks.push(
          ws.ts
            .check([{ file: change.file, ...(change.before !== undefined ? { before: change.before } : {}) }], timeoutMs)
            .then((r) => fromTs(ws, r, timeoutMs)),
        );
      }
      if (settings.eslint && ws.eslint && ESLINT_EXTENSIONS.test(change.file)) {
        checks.push(runEslint(root, [change.file], run).then((r) => againstBaseline(ws, `eslint\0${change.file}`, "ESLint", r, timeoutMs)));
      }
      for (const command of commandsFor(change.file)) {
        checks.push(
          runDiagnosticsCommand(root, command, change.file, run).then((r) =>
            againstBaseline(ws, `${command.command}\0${change.file}`, `"${command.command}"`, r, timeoutMs),
          ),
        );
      }
      const results = await Promise.all(checks);
      return render("Diagnostics: {n} after this change (fix them, or say why not):", results, settings.maxProblems);
    },

    async project(root, signal) {
      if (!settings.enabled) return "Diagnostics are off (diagnostics.enabled is false in the config, or MINI_CURSOR_DIAGNOSTICS=off).";
      const ws = workspaceFor(root);
      if (!ws)
        return "Error: no project diagnostics: the project's checkers run only in the sandbox, and there is none. Run the project's checks with execute_command instead.";
      const timeoutMs = settings.timeoutMs * PROJECT_TIMEOUT_FACTOR;
      const run = { sandbox: ws.sandbox, env, timeoutMs, ...(signal ? { signal } : {}) };
      const checked: string[] = [];
      const checks: Promise<CheckResult>[] = [];
      if (settings.typescript) {
        checked.push("TypeScript");
        checks.push(
          ws.ts.project(timeoutMs).then((r) => {
            // A project without its own typescript was not checked: the heading must not say it was.
            if (r.kind === "unavailable") checked.splice(checked.indexOf("TypeScript"), 1);
            return fromTs(ws, r, timeoutMs);
          }),
        );
      }
      if (settings.eslint && ws.eslint) {
        checked.push("ESLint");
        checks.push(runEslint(root, ["."], run).then((r) => plain("ESLint", r, timeoutMs)));
      }
      for (const command of settings.commands) {
        checked.push(`"${command.command}"`);
        checks.push(runDiagnosticsCommand(root, command, ".", run).then((r) => plain(`"${command.command}"`, r, timeoutMs)));
      }
      const results = await Promise.all(checks);
      const problems = results.flatMap((r) => r.problems);
      const notes = results.flatMap((r) => r.notes);
      const head = `Project diagnostics (${checked.join(", ") || "no checker available"}): ${problems.length === 0 ? "no problems" : `${problems.length} problem${problems.length === 1 ? "" : "s"}`}.`;
      return [head, ...formatProblems(problems, Math.max(settings.maxProblems, 50)), ...notes].join("\n");
    },

    close() {
      for (const ws of workspaces.values()) ws.ts.close();
      workspaces.clear();
    },
  };
}

function plain(label: string, outcome: CommandOutcome, timeoutMs: number): CheckResult {
  if (outcome.kind === "problems") return { problems: outcome.problems, notes: [] };
  if (outcome.kind === "timeout") return { problems: [], notes: [`Note: ${label} took longer than ${seconds(timeoutMs)} and was stopped.`] };
  return { problems: [], notes: [`Note: ${label} failed (${outcome.reason}).`] };
}
