import { resolveDatabaseTarget } from "../platform/config/database-settings.js";
import type { Clock } from "../platform/clock.js";
import { openExistingSessionDatabase, openSessionDatabase } from "./database.js";
import type { OpenRecordsOptions } from "./open-records.js";
import { NULL_TASK_ID, type RunStore } from "./run-store.js";
import { sqliteRecords } from "./sqlite-records.js";

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
        .prepare(
          `DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ? AND task_id = ? AND channel IN (${channels.map(() => "?").join(", ")})`,
        )
        .run(threadId, checkpointId, NULL_TASK_ID, ...channels);
    },
  };
}
