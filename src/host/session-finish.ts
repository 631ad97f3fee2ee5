import { isBudgetStop } from "../core/index.js";
import { budgetHint } from "../graph/budget-resume.js";
import { turnUsage } from "../graph/follow-up.js";
import { renderFinalReport } from "../graph/report.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import { errorLine } from "../models/model-errors.js";
import { summarizeUsage } from "../models/cost/usage.js";
import { damagedDatabaseLine } from "../sessions/data-errors.js";
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
  await stopped(`Stopped on an error; the completed steps are saved. Resume with: ${p.resumeCommand}`);
  return EXIT.failed;
}

/** Whatever happened: the prompter and signals let go, the last undo snapshot and commit taken, the services stopped, the lock released. */
export async function closeSession(p: PreparedSession, o: SessionRunOptions): Promise<void> {
  p.run.detach();
  o.prompter.close();
  if (p.services.undo.started) await p.services.undo.after();
  await p.worktree?.committer.settled();
  await Promise.all([p.services.close(), p.recording.flush()]);
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
