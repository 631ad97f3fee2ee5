import type { Limits, SafetyPolicy } from "../core/index.js";
import { NULL_TASK_ID, type RunStore } from "./run-store.js";

export interface SessionSettings {
  safety: SafetyPolicy;
  limits: Limits;
  /** The checkout the session goes on in, when it moved (`resume --workspace` on another machine, PostgreSQL). */
  workspace?: string;
}

/**
 * Records new settings for a session that has a checkpoint, to take effect when it next runs, without a new
 * checkpoint. `graph.updateState` would make one, and the step that was running when the session stopped (an
 * approval, a kill) would then get a new task id, losing its sub-agent's progress; writes without a task are
 * applied on top of the checkpoint as it is, exactly as `invoke(new Command({ update }))` applies its update.
 * What the graph reads during the run comes from the run's configurable (the CLI passes the same settings there, and
 * the step the session stopped in prefers them over its own state); this keeps the state truthful for what reads it.
 */
export async function queueSettings(database: RunStore, sessionId: string, settings: SessionSettings): Promise<boolean> {
  const tuple = await database.checkpointer.getTuple({ configurable: { thread_id: sessionId, checkpoint_ns: "" } });
  const checkpointId: unknown = tuple?.config.configurable?.checkpoint_id;
  if (typeof checkpointId !== "string") return false;
  const writes: [string, unknown][] = [
    ["safety", settings.safety],
    ["limits", settings.limits],
  ];
  if (settings.workspace !== undefined) writes.push(["workspace", settings.workspace]);
  // The saver ignores a write it already has at the same position: drop the ones an earlier resume queued here.
  await database.dropQueuedWrites(
    sessionId,
    checkpointId,
    writes.map(([channel]) => channel),
  );
  await database.checkpointer.putWrites({ configurable: { thread_id: sessionId, checkpoint_ns: "", checkpoint_id: checkpointId } }, writes, NULL_TASK_ID);
  return true;
}
