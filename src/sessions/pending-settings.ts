import type { Limits, SafetyPolicy } from "../core/index.js";
import type { SessionDatabase } from "./database.js";

/** LangGraph's id for writes that belong to no task: applied to the state when the thread next runs (a Command's `update`). */
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

export interface SessionSettings {
  safety: SafetyPolicy;
  limits: Limits;
}

/**
 * Records new settings for a session that has a checkpoint, to take effect when it next runs, without a new
 * checkpoint. `graph.updateState` would make one, and the step that was running when the session stopped (an
 * approval, a kill) would then get a new task id, losing its sub-agent's progress; writes without a task are
 * applied on top of the checkpoint as it is, exactly as `invoke(new Command({ update }))` applies its update.
 * What the graph reads during the run comes from the run's configurable (the CLI passes the same settings there, and
 * the step the session stopped in prefers them over its own state); this keeps the state truthful for what reads it.
 */
export async function queueSettings(database: SessionDatabase, sessionId: string, settings: SessionSettings): Promise<boolean> {
  const tuple = await database.checkpointer.getTuple({ configurable: { thread_id: sessionId, checkpoint_ns: "" } });
  const checkpointId: unknown = tuple?.config.configurable?.checkpoint_id;
  if (typeof checkpointId !== "string") return false;
  // The saver ignores a write it already has at the same position: drop the ones an earlier resume queued here.
  database.db
    .prepare("DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ? AND task_id = ? AND channel IN ('safety', 'limits')")
    .run(sessionId, checkpointId, NULL_TASK_ID);
  await database.checkpointer.putWrites(
    { configurable: { thread_id: sessionId, checkpoint_ns: "", checkpoint_id: checkpointId } },
    [
      ["safety", settings.safety],
      ["limits", settings.limits],
    ],
    NULL_TASK_ID,
  );
  return true;
}
