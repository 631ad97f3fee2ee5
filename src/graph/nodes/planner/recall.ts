import type { EventSink } from "../../../core/index.js";
import type { MemoryStore } from "../../../memory/types.js";

/** Memories for a planner turn: the lines recalled, or "late" when memory did not answer within its wait. */
export type Recall = { kind: "recalled"; memories: string[] } | { kind: "late" };

/**
 * Recalls memories for the task, waiting at most `memory.recallWaitMs` (a session starts opening memory as it
 * starts; a Chroma server that has to start first is not waited for). The first plan that goes without says so once.
 */
export async function recallForTurn(
  memory: MemoryStore,
  query: { task: string; workspace: string; limit: number },
  o: { firstPlan: boolean; events: EventSink },
): Promise<Recall> {
  const recalling = memory.recall(query).then((memories): Recall => ({ kind: "recalled", memories }));
  const waitMs = memory.recallWaitMs;
  if (waitMs === undefined) return recalling;
  // A recall that comes too late is dropped (a later turn recalls again); a failure then must not go unhandled.
  recalling.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Recall>((resolve) => (timer = setTimeout(() => resolve({ kind: "late" }), waitMs)));
  const result = await Promise.race([recalling, late]).finally(() => clearTimeout(timer));
  if (result.kind === "late" && o.firstPlan) {
    o.events.emit({
      type: "notice",
      level: "info",
      message: `Memory was not open within ${waitMs} ms (MINI_CURSOR_MEMORY_WAIT), so the first plan goes without recalled memories; later planner turns use them.`,
    });
  }
  return result;
}
