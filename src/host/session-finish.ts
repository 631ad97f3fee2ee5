import { isBudgetStop } from "../core/index.js";
import { budgetHint } from "../graph/budget-resume.js";
import { turnUsage } from "../graph/follow-up.js";
import { renderFinalReport } from "../graph/report.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import { errorLine } from "../models/model-errors.js";
import { summarizeUsage } from "../models/cost/usage.js";
import { damagedDatabaseLine } from "../sessions/data-errors.js";
import { ShadowStore } from "../sessions/undo/index.js";
import { logger } from "../platform/logger.js";
import { errorMessage } from "../platform/error-info.js";
import { EXIT, exitCodeForStatus } from "./session-exit.js";
import type { PreparedSession } from "./session-prepare.js";
import type { SessionRunOptions } from "./session-options.js";

/** The graph ran to its end: the session's row gets its status and usage, and the person its report. */
export async function finishSession(p: PreparedSession, o: SessionRunOptions): Promise<number> {
  const state = (await p.graph.getState(p.config)).values as WorkspaceStateValue;
  const usage = summarizeUsage(state.usage, o.prices);
  const status = state.status === "running" ? "failed" : state.status;
  await o.database.sessions.update(o.sessionId, { status, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: usage.costUsd });
  let report = state.finalReport || renderFinalReport(state, o.prices);
  if (state.status === "limit_reached" && isBudgetStop(state.stop)) report += `\n${budgetHint(state.stop, turnUsage(usage, state.turn), p.resumeCommand)}`;
  o.onOutcome?.({ status, stop: state.stop });
  await p.finish({ type: "session_finished", sessionId: o.sessionId, status, report, usage });
  return exitCodeForStatus(status);
}

/** The run stopped on an error (a signal, a database gone, the model endpoint): one line, and the session resumable. */
export async function stopOnError(p: PreparedSession, o: SessionRunOptions, error: unknown): Promise<number> {
  // A damaged database can record nothing more: say which file and what to do, and stop (exit 2).
  const damaged = damagedDatabaseLine(error);
  if (damaged !== undefined) {
    o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${damaged}` });
    return EXIT.usage;
  }
  await recordProgress(p, o);
  const stopped = (report: string) => p.finish({ type: "session_finished", sessionId: o.sessionId, status: "interrupted", report });
  const lostLine = p.run.lostDatabase ?? o.database.connectionProblem(error);
  if (lostLine !== null) {
    o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${lostLine}` });
    await stopped(`Stopped: the session database went away; the completed steps are saved. Resume once it is back with: ${p.resumeCommand}`);
    return EXIT.failed;
  }
  if (p.run.interrupted) {
    await stopped(`Interrupted. Resume with: ${p.resumeCommand}`);
    return EXIT.interrupted;
  }
  const { settings } = o.models;
  const line = errorLine(error, {
    endpoint: settings.baseUrl ?? "https://api.openai.com/v1",
    model: settings.model,
    attempts: settings.maxRetries + 1,
    timeoutMs: settings.timeoutMs,
  });
  o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${line}` });
  if (o.discardUnanswered && !(await modelAnswered(p, o))) {
    // Nothing in it to resume: closeSession deletes it once its services have stopped writing to it.
    discarded.add(p);
    await p.finish({
      type: "session_finished",
      sessionId: o.sessionId,
      status: "failed",
      report: "Nothing was kept: the model never answered, so there is nothing to resume. Run the task again once the endpoint answers.",
    });
    return EXIT.failed;
  }
  await stopped(`Stopped on an error; the completed steps are saved. Resume with: ${p.resumeCommand}`);
  return EXIT.failed;
}

/** Sessions stopped before the model ever answered, deleted when they close (SessionRunOptions.discardUnanswered). */
const discarded = new WeakSet<PreparedSession>();

/** Whether any model call of the session was answered: recorded (after its answer), or counted in the state's usage. */
async function modelAnswered(p: PreparedSession, o: SessionRunOptions): Promise<boolean> {
  try {
    await p.recording.flush();
    if (((await o.database.recordings.summary(o.sessionId))?.calls ?? 0) > 0) return true;
    // A recording that stopped (a write refused) may miss calls: the usage in the state counts them too.
    const state = (await p.graph.getState({ configurable: p.config.configurable })).values as Partial<WorkspaceStateValue>;
    return summarizeUsage(state.usage ?? {}, o.prices).calls > 0;
  } catch {
    // Unsure: keep the session.
    return true;
  }
}

/** Deletes a session that never reached the model: its undo records, then its row, recording and checkpoints. */
async function discardSession(o: SessionRunOptions): Promise<void> {
  try {
    await ShadowStore.open(o.workspace, { env: o.env, clock: o.clock }).forget(o.sessionId);
    await o.database.deleteSession(o.sessionId);
  } catch (error) {
    // It stays listed as interrupted, which is what it was before: nothing is lost.
    logger.warn(`could not delete the unanswered session ${o.sessionId}: ${errorMessage(error)}`);
  }
}

/** Whatever happened: the prompter and signals let go, the last undo snapshot and commit taken, the services stopped, the lock released. */
export async function closeSession(p: PreparedSession, o: SessionRunOptions): Promise<void> {
  p.run.detach();
  o.prompter.close();
  const discard = discarded.has(p);
  // A session about to be deleted takes no last snapshot: it would only be undo records to delete.
  if (p.services.undo.started && !discard) await p.services.undo.after();
  await p.worktree?.committer.settled();
  await Promise.all([p.services.close(), p.recording.flush()]);
  // Under the session's lock still, so no `resume` starts on it while it goes.
  if (discard) await discardSession(o);
  if (!o.lock) await p.lock.release();
}

async function recordProgress(p: PreparedSession, o: SessionRunOptions): Promise<void> {
  try {
    const state = (await p.graph.getState({ configurable: p.config.configurable })).values as Partial<WorkspaceStateValue>;
    const usage = summarizeUsage(state.usage ?? {}, o.prices);
    await o.database.sessions.update(o.sessionId, {
      status: "interrupted",
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd,
    });
  } catch {
    // A database that went away keeps the row as it was: `sessions` shows a "running" row nobody holds as interrupted.
    await o.database.sessions.update(o.sessionId, { status: "interrupted" }).catch(() => {});
  }
}
