import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { PostgresTarget } from "../../platform/config/database-settings.js";
import type { Clock } from "../../platform/clock.js";
import { NULL_TASK_ID, type RunStore } from "../run-store.js";
import { unavailableError } from "./connection.js";
import { openPostgresRecords } from "./postgres-records.js";
import { withSchemaLock } from "./schema.js";

/**
 * Sessions and checkpoints in PostgreSQL: the official PostgresSaver on the records' pool. Its tables are made (and
 * migrated, by its own `checkpoint_migrations`) on first use, under the schema lock so processes starting together
 * do not race to create them.
 */
export async function openPostgresRunStore(target: PostgresTarget, workspace: string, clock: Clock): Promise<RunStore> {
  const records = await openPostgresRecords(target, workspace, clock);
  const { pool } = records;
  const checkpointer = new PostgresSaver(pool);
  try {
    await withSchemaLock(pool, () => checkpointer.setup());
  } catch (error) {
    await records.close();
    throw unavailableError(error, target) ?? error;
  }
  return {
    ...records,
    checkpointer,
    async dropQueuedWrites(threadId, checkpointId, channels) {
      await pool.query(
        "DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = $2 AND task_id = $3 AND channel = ANY($4)",
        [threadId, checkpointId, NULL_TASK_ID, [...channels]],
      );
    },
  };
}
