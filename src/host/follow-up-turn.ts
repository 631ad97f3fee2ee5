import type { compileGraph } from "../graph/build-graph.js";
import { planFollowUp } from "../graph/follow-up.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "../graph/state.js";
import { shownTask, type EventSink } from "../core/index.js";
import type { PriceTable } from "../models/cost/prices.js";
import type { SessionRows } from "../sessions/session-records.js";

/**
 * Starts a follow-up turn (`resume --message`) under the session's lock: the graph input for the new turn, decided
 * from the state as it is now, and the session index row's turn count and latest instruction.
 */
export async function followUpInput(
  graph: ReturnType<typeof compileGraph>,
  thread: { thread_id: string },
  o: { sessionId: string; followUp: string; prices: PriceTable; printer: EventSink; sessions: SessionRows },
): Promise<WorkspaceStateUpdate> {
  const state = (await graph.getState({ configurable: thread })).values as WorkspaceStateValue;
  const input = planFollowUp(state, o.followUp, o.prices);
  await o.sessions.update(o.sessionId, { turns: input.turn.number, instruction: input.turn.instruction });
  o.printer.emit({
    type: "notice",
    level: "info",
    message: `Follow-up instruction (turn ${input.turn.number}): ${shownTask(input.turn.instruction)}; the limits count from zero for this turn.`,
  });
  return input;
}
