import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { resolveDatabaseTarget } from "../config/database-settings.js";
import type { Clock } from "../runtime/clock.js";
import { openExistingSessionDatabase, openSessionDatabase } from "./database.js";
import type { OpenRecordsOptions } from "./open-records.js";
import type { SessionRecords } from "./session-records.js";
import { sqliteRecords } from "./sqlite-records.js";

/** LangGraph's id for writes that belong to no task (src/sessions/pending-settings.ts). */
export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/**
 * What running a session needs: its records and LangGraph's checkpointer over the same store (SqliteSaver on the
 * workspace's file, or PostgresSaver). Only the commands that read or write checkpoints import this: it loads LangGraph.
 */
export interface RunStore extends SessionRecords {
  checkpointer: BaseCheckpointSaver;
  /** Drops writes without a task on `channels` at a checkpoint (settings queued by an earlier resume). */
  dropQueuedWrites(threadId: string, checkpointId: string, channels: readonly string[]): Promise<void>;
}

/** The run store of `workspace` (src/sessions/open-records.ts says where it lives); null when it has none and `create` is false. */
export async function openRunStore(workspace: string, env: NodeJS.ProcessEnv, clock: Clock, o: OpenRecordsOptions): Promise<RunStore | null> {
  const target = resolveDatabaseTarget(env, workspace);
  if (target) {
    const { openPostgresRunStore } = await import("./postgres/postgres-run-store.js");
    return openPostgresRunStore(target, workspace, clock);
  }
  const file = o.create ? openSessionDatabase(workspace, clock) : openExistingSessionDatabase(workspace, clock);
  if (!file) return null;
  return {
    ...sqliteRecords(file, workspace, clock),
    checkpointer: file.checkpointer,
    dropQueuedWrites: async (threadId, checkpointId, channels) => {
      file.db
        .prepare(`DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ? AND task_id = ? AND channel IN (${channels.map(() => "?").join(", ")})`)
        .run(threadId, checkpointId, NULL_TASK_ID, ...channels);
    },
  };
}
