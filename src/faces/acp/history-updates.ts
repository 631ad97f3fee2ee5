import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { WorkspaceStateValue } from "../../graph/state.js";
import { planEntries } from "./plan-entries.js";
import type { RecordedThread } from "./recorded-thread.js";
import { threadUpdates } from "./thread-replay.js";
import { toolView, workspacePath } from "./tool-view.js";

type SessionHistory = Pick<WorkspaceStateValue, "plan" | "commands" | "filesChanged" | "turn" | "finalReport" | "answers">;

const text = (value: string) => ({ type: "text" as const, text: value });

/**
 * What `session/load` replays. With the session's recorded model calls: the thread as it happened, turn by turn
 * (thread-replay.ts), closed by the last report or what is open. Without (a session from before recording): the
 * state's summary below: the person's words (the task, the latest follow-up, answers to questions), the plan,
 * the commands with their exit codes and the files changed as finished tool calls, and the last report. Only the
 * latest follow-up is kept in a session (its state stays small), so earlier ones are not replayed.
 */
export function historyUpdates(
  task: string,
  status: string,
  state: SessionHistory | null,
  workspace: string,
  recorded: RecordedThread | null = null,
): SessionUpdate[] {
  // Opened and never prompted: nothing happened yet.
  if (status === "new") return [];
  if (recorded && state) return recordedHistory(task, status, state, workspace, recorded);
  const updates: SessionUpdate[] = [{ sessionUpdate: "user_message_chunk", content: text(task) }];
  if (!state) return [...updates, { sessionUpdate: "agent_message_chunk", content: text(`Not started yet (${status}): your next prompt starts it.\n`) }];
  for (const { question, answer } of state.answers) {
    updates.push({ sessionUpdate: "agent_message_chunk", content: text(`${question}\n`) }, { sessionUpdate: "user_message_chunk", content: text(answer) });
  }
  if (state.turn) updates.push({ sessionUpdate: "user_message_chunk", content: text(state.turn.instruction) });
  if (state.plan.length > 0) updates.push({ sessionUpdate: "plan", entries: planEntries(state.plan) });
  state.commands.forEach((command, i) => {
    const view = toolView("execute_command", command.command, workspace);
    const outcome = command.refused ? `not run (${command.refused})` : command.timedOut ? "timed out" : `exit code ${command.exitCode ?? "?"}`;
    updates.push({
      sessionUpdate: "tool_call",
      toolCallId: `history-command-${i + 1}`,
      ...view,
      status: command.exitCode === 0 && !command.refused ? "completed" : "failed",
      content: [{ type: "content", content: text(outcome) }],
    });
  });
  state.filesChanged.forEach((file, i) => {
    updates.push({
      sessionUpdate: "tool_call",
      toolCallId: `history-file-${i + 1}`,
      kind: "edit",
      title: `Changed ${file}`,
      locations: [{ path: workspacePath(workspace, file) }],
      status: "completed",
    });
  });
  const closing = closingLine(status, state);
  if (closing) updates.push({ sessionUpdate: "agent_message_chunk", content: text(`${closing}\n`) });
  return updates;
}

function closingLine(status: string, state: SessionHistory): string {
  return status === "awaiting_approval"
    ? "An approval is open: your next prompt asks it again."
    : status === "awaiting_input"
      ? "A question is open: your next prompt is the answer."
      : state.finalReport;
}

/** The recorded thread; the final report takes the place of the last turn's closing summary (it starts with it). */
function recordedHistory(task: string, status: string, state: SessionHistory, workspace: string, recorded: RecordedThread): SessionUpdate[] {
  const { updates, lastSummary } = threadUpdates({ task, calls: recorded.calls, turns: recorded.turns, plan: state.plan, answers: state.answers, workspace });
  // The plan as it stands (a step the turn left running, or one folded away since): unless the replay ended with it.
  const plan = planEntries(state.plan);
  const lastPlan = updates.findLast((u) => u.sessionUpdate === "plan");
  if (plan.length > 0 && JSON.stringify(lastPlan?.sessionUpdate === "plan" ? lastPlan.entries : null) !== JSON.stringify(plan))
    updates.push({ sessionUpdate: "plan", entries: plan });
  if (recorded.truncated)
    updates.push({ sessionUpdate: "agent_thought_chunk", content: text("The recording stopped at its size limit: later calls are not replayed.\n") });
  const closing = closingLine(status, state);
  if (!closing) return updates;
  const message: SessionUpdate = { sessionUpdate: "agent_message_chunk", content: text(`${closing}\n`) };
  if (lastSummary !== null && status !== "awaiting_approval" && status !== "awaiting_input") updates.splice(lastSummary, 1);
  updates.push(message);
  return updates;
}
