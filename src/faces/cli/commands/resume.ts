import fs from "node:fs";
import { budgetHint } from "../../../graph/budget-resume.js";
import { planContinuation } from "../../../graph/continue-session.js";
import { budgetForTurn, turnStartFor, turnUsage } from "../../../graph/follow-up.js";
import { summarizeUsage } from "../../../models/cost/usage.js";
import { isBudgetStop, type Limits, type SafetyPolicy } from "../../../core/index.js";
import { openRunStore } from "../../../sessions/open-run-store.js";
import { queueSettings } from "../../../sessions/pending-settings.js";
import type { HeldSessionLock } from "../../../sessions/session-records.js";
import { WorkspaceLock } from "../../../sessions/workspace-lock.js";
import type { Clock } from "../../../platform/clock.js";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse } from "../args.js";
import { BUDGET_OPTIONS, parseBudgetFlags, raiseBudget, requirePricesForCostBudget } from "../budget-setup.js";
import { setupSessionConfig } from "../../../host/config-setup.js";
import { EXIT, UsageError, exitCodeForStatus } from "../exit-codes.js";
import { RESUME_HELP } from "../help.js";
import { makePrinter, type CliIo } from "../io.js";
import { offerMcpTrust } from "../mcp-trust-prompt.js";
import { sessionWorkspace } from "../session-workspace.js";
import { describeModels } from "../../../host/model-setup.js";
import { resumeCommandFor } from "../../../host/resume-hint.js";
import { runSession } from "../../../host/session-runner.js";
import { hasCheckpoint, readSessionState } from "../../../host/session-state.js";
import { commandTimeoutFlag, describeChanges, limitFlags, safetyFlags, SETTING_OPTIONS } from "../session-settings.js";
import { readStoredOptions, type StoredRunOptions } from "../../../host/stored-options.js";
import { makePrompter } from "../safety-setup.js";
import { worktreeGone } from "./session-place.js";
import { worktreeTop } from "../../../sessions/worktree/repository.js";

const RESUME_OPTIONS = {
  ...COMMON_OPTIONS,
  ...MODEL_OPTIONS,
  ...BUDGET_OPTIONS,
  ...SETTING_OPTIONS,
  force: { type: "boolean" },
  message: { type: "string", short: "m" },
} as const;

/** `--message`: a follow-up instruction, never empty. */
function followUpFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError("--message needs an instruction, got an empty one");
  return value;
}

export async function resumeCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, RESUME_OPTIONS);
  if (values.help) {
    io.stdout.write(`${RESUME_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 1) throw new UsageError("resume takes at most one session id");
  const budgetFlags = parseBudgetFlags(values);
  const newLimits = limitFlags(values);
  const newTimeoutMs = commandTimeoutFlag(values);
  const newSafety = safetyFlags(values);
  const { workspace, worktreeSession } = sessionWorkspace(values.workspace, io.cwd);
  const message = followUpFlag(values.message);
  const wanted = positionals[0] ?? worktreeSession;
  let where = workspace;
  const missing = () => new UsageError(wanted ? `no session "${wanted}" in ${where} (see mini-cursor sessions)` : `no sessions in ${workspace} yet`);
  // Only reads until it knows there is a session: a folder without one keeps no `.mini-cursor/`.
  const database = await openRunStore(workspace, io.env, clock, { create: false });
  if (!database) throw missing();
  if (database.kind === "postgres") where = `the session database ${database.label}`;
  let workspaceLock: WorkspaceLock | null = null;
  let sessionLock: HeldSessionLock | null = null;
  try {
    const found = wanted ? await database.sessions.get(wanted) : await database.sessions.latest();
    if (!found) throw missing();
    // PostgreSQL holds every checkout's sessions: one started in another checkout of the project (another machine)
    // goes on in this one, which its row and its state then name (src/sessions/pending-settings.ts).
    const moved = found.workspace !== workspace && database.kind === "postgres";
    // A worktree session goes on in its worktree, which is a folder of the checkout it was started from.
    if (found.worktree && moved)
      throw new UsageError(
        `session ${found.id} works in the git worktree ${found.worktree} of ${found.workspace}; resume it there (--workspace ${found.workspace})`,
      );
    if (found.worktree && !fs.existsSync(found.worktree)) throw new UsageError(worktreeGone(found.id, found.worktree));
    const files = found.worktree ?? workspace;
    const session = moved ? { ...found, workspace } : found;
    const printer = makePrinter(values.json ?? false, io, clock);
    // Every hint printed below must work from where the person is (with --workspace when they ran from elsewhere).
    const resumeHint = resumeCommandFor(session.id, workspace, io.cwd);
    const finished = () => {
      const followUp = `${resumeHint} --message "..."`;
      printer.emit({
        type: "notice",
        level: "info",
        message: `Session ${session.id} already finished (${session.status}); nothing to resume. Give it a follow-up instruction with: ${followUp}`,
      });
      return exitCodeForStatus(session.status);
    };
    if (session.status === "new") {
      // Opened in an editor (session/new) and never prompted: there is no task to run or follow up on.
      const line = `Session ${session.id} has no task yet: nothing to resume. Give it its first prompt in the editor, or start a task with: mini-cursor run "<task>"`;
      printer.emit({ type: "notice", level: "info", message: line });
      return EXIT.done;
    }
    if (session.status === "done" && message === undefined) return finished();
    // A paused session answers its question first: the answer belongs to the turn that asked it.
    if (message !== undefined && session.status.startsWith("awaiting_")) {
      throw new UsageError(`session ${session.id} is waiting for an answer (${session.status}); answer it first with: ${resumeHint}, then give the follow-up`);
    }
    // Taken before anything about the session changes (its settings, its workspace): of two processes resuming it
    // at once, on one machine or two, the one refused (SessionBusyError, naming the holder) has changed nothing.
    sessionLock = await database.lockSession(session.id);
    workspaceLock = WorkspaceLock.acquire(files, { force: values.force ?? false, flag: "--force" });
    const checkpointed = await hasCheckpoint(database, session.id);
    if (message !== undefined && !checkpointed) {
      throw new UsageError(`session ${session.id} has no saved progress to follow up on yet; run it first with: ${resumeHint}`);
    }
    // A session that ended failed or limit_reached continues from its last checkpoint (src/graph/continue-session.ts).
    const stopped = message === undefined && (session.status === "failed" || session.status === "limit_reached");
    const stored = readStoredOptions(session.options);
    // Sessions stored before their safety was recorded here have it only in their state (the run passes it on).
    // Every checkpointed session's state is read: a follow-up turn's budget counts from the turn's start.
    const needsState = stopped || checkpointed;
    const state = needsState && checkpointed ? await readSessionState(database, session.id) : null;
    const budget = raiseBudget(stored.budget, budgetFlags);
    const model = values.model ?? stored.model;
    const baseUrl = values["base-url"] ?? stored.baseUrl;
    const { config, models, safety: configured, prices } = await setupSessionConfig({ model, baseUrl }, workspace, io.env);
    requirePricesForCostBudget(budget, prices, models.provider);
    const runBudget = budgetForTurn(budget, turnStartFor(state, message !== undefined, prices));
    const stoppedState = stopped ? state : null;
    const continuation = stoppedState ? planContinuation(stoppedState, runBudget, prices) : null;
    if (continuation?.kind === "refuse") {
      const stop = stoppedState?.stop ?? null;
      const message = isBudgetStop(stop)
        ? `Session ${session.id} stopped at its budget and cannot continue: ${continuation.reason}. ${budgetHint(stop, turnUsage(summarizeUsage(stoppedState?.usage ?? {}, prices), stoppedState?.turn ?? null), resumeHint)}`
        : `Session ${session.id} ended ${session.status} and cannot continue: ${continuation.reason}.`;
      printer.emit({ type: "notice", level: "info", message });
      return exitCodeForStatus(session.status);
    }
    // The session's settings as they are (its state has the safety of sessions stored before it was recorded here).
    const current = { limits: stored.limits, commandTimeoutMs: stored.commandTimeoutMs, safety: stored.safety ?? state?.safety ?? configured };
    const next: { limits: Limits; commandTimeoutMs: number; safety: SafetyPolicy } = {
      limits: { ...current.limits, ...newLimits },
      commandTimeoutMs: newTimeoutMs ?? current.commandTimeoutMs,
      safety: { ...current.safety, ...newSafety },
    };
    const changesState = Object.keys(newLimits).length > 0 || Object.keys(newSafety).length > 0;
    const modelLabel = describeModels(models.settings);
    const changes = describeChanges(current, next);
    if (values.model !== undefined || values["base-url"] !== undefined) {
      if (modelLabel !== session.model) changes.unshift(`model: ${session.model} → ${modelLabel} for the rest of the session`);
    }
    const updated: StoredRunOptions = { ...stored, ...next, budget, ...(model ? { model } : {}), ...(baseUrl ? { baseUrl } : {}) };
    await database.sessions.update(session.id, { options: JSON.stringify(updated), ...(moved ? { workspace } : {}) });
    // They travel with the run (configurable, made into the stopped step's runtime context when it runs again; a
    // pending approval only the mode asked is answered by the new mode); the state gets them too, for what reads it later.
    if (checkpointed && (changesState || moved)) await queueSettings(database, session.id, { ...next, ...(moved ? { workspace } : {}) });
    if (moved)
      printer.emit({ type: "notice", level: "info", message: `Session ${session.id} was last run in ${found.workspace}; it goes on in ${workspace}.` });
    for (const message of changes) printer.emit({ type: "notice", level: "info", message });
    // At a terminal, the project's MCP servers nobody trusted yet may be trusted now, before they would start.
    if (!values.json) await offerMcpTrust(files, io);
    const worktree = session.worktree
      ? { folder: await worktreeTop(session.worktree, io.env), branch: session.branch ?? "", home: workspace, uncommittedLeftOut: false }
      : null;
    return await runSession({
      sessionId: session.id,
      workspace: files,
      ...(worktree ? { worktree } : {}),
      cwd: io.cwd,
      task: session.task,
      limits: next.limits,
      commandTimeoutMs: next.commandTimeoutMs,
      // Killed before its first checkpoint: nothing to continue from, so start it again from its task.
      fresh: !checkpointed,
      resumed: true,
      models,
      modelLabel,
      database,
      printer,
      clock,
      env: io.env,
      // The input of a session that starts over (no checkpoint), and the run's configurable safety in every case.
      safety: next.safety,
      prompter: makePrompter(io, values.json ?? false),
      prices,
      memory: config.memory,
      budget: runBudget,
      continueStopped: continuation?.kind === "continue",
      lock: sessionLock,
      ...(message !== undefined ? { followUp: message } : {}),
    });
  } finally {
    await sessionLock?.release();
    await database.close();
    workspaceLock?.release();
  }
}
