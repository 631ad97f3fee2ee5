import type pg from "pg";
import type { Clock } from "../../platform/clock.js";
import type { DeletedRows } from "../delete-session.js";
import type { ForkCopy } from "../fork-session.js";

/** Runs `work` in one transaction on one connection; rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Whether PostgresSaver has made its tables (a database no run has used yet has none). */
async function hasCheckpointTables(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('checkpoint_writes') IS NOT NULL AS present");
  return rows[0]?.present === true;
}

const SESSION_COPY_COLUMNS = "task, workspace, model, status, input_tokens, output_tokens, cost_usd, options, turns, instruction, worktree, branch";

/**
 * A fork in PostgreSQL (src/sessions/fork-session.ts does it for SQLite): the index row, the recording and every
 * checkpoint, blob and write of the thread copied to the new id in one transaction; metadata naming the original
 * thread is rewritten. Fails, copying nothing, when the new id exists or the original has no row.
 */
export function forkPostgresSession(pool: pg.Pool, from: string, to: string, clock: Clock): Promise<ForkCopy> {
  return inTransaction(pool, async (client) => {
    if ((await client.query("SELECT 1 FROM mc_sessions WHERE id = $1", [to])).rowCount) throw new Error(`session ${to} already exists`);
    const now = clock.now();
    const copied = await client.query(
      `INSERT INTO mc_sessions (id, created_at, updated_at, ${SESSION_COPY_COLUMNS}) SELECT $1, $2, $2, ${SESSION_COPY_COLUMNS} FROM mc_sessions WHERE id = $3`,
      [to, now, from],
    );
    if (copied.rowCount !== 1) throw new Error(`no session ${from} to fork`);
    await client.query(
      "INSERT INTO mc_model_calls (session_id, seq, role, step, model, format, request, response) SELECT $1, seq, role, step, model, format, request, response FROM mc_model_calls WHERE session_id = $2",
      [to, from],
    );
    await client.query(
      "INSERT INTO mc_recording_turns (session_id, first_seq, instruction) SELECT $1, first_seq, instruction FROM mc_recording_turns WHERE session_id = $2",
      [to, from],
    );
    await client.query(
      "INSERT INTO mc_recordings (session_id, calls, bytes, truncated) SELECT $1, calls, bytes, truncated FROM mc_recordings WHERE session_id = $2",
      [to, from],
    );
    if (!(await hasCheckpointTables(client))) return { checkpoints: 0, writes: 0 };
    const checkpoints = await client.query(
      `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
       SELECT $1, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
         CASE WHEN metadata->>'thread_id' = $2 THEN jsonb_set(metadata, '{thread_id}', to_jsonb($1::text)) ELSE metadata END
       FROM checkpoints WHERE thread_id = $2`,
      [to, from],
    );
    await client.query(
      "INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob) SELECT $1, checkpoint_ns, channel, version, type, blob FROM checkpoint_blobs WHERE thread_id = $2",
      [to, from],
    );
    const writes = await client.query(
      "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob) SELECT $1, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob FROM checkpoint_writes WHERE thread_id = $2",
      [to, from],
    );
    return { checkpoints: checkpoints.rowCount ?? 0, writes: writes.rowCount ?? 0 };
  });
}

/** Everything a session owns in PostgreSQL, in one transaction; null, removing nothing, when it has no index row. */
export function deletePostgresSession(pool: pg.Pool, id: string): Promise<DeletedRows | null> {
  return inTransaction(pool, async (client) => {
    if (!(await client.query("DELETE FROM mc_sessions WHERE id = $1", [id])).rowCount) return null;
    const modelCalls = (await client.query("DELETE FROM mc_model_calls WHERE session_id = $1", [id])).rowCount ?? 0;
    await client.query("DELETE FROM mc_recordings WHERE session_id = $1", [id]);
    await client.query("DELETE FROM mc_recording_turns WHERE session_id = $1", [id]);
    if (!(await hasCheckpointTables(client))) return { checkpoints: 0, writes: 0, modelCalls };
    const checkpoints = (await client.query("DELETE FROM checkpoints WHERE thread_id = $1", [id])).rowCount ?? 0;
    await client.query("DELETE FROM checkpoint_blobs WHERE thread_id = $1", [id]);
    const writes = (await client.query("DELETE FROM checkpoint_writes WHERE thread_id = $1", [id])).rowCount ?? 0;
    return { checkpoints, writes, modelCalls };
  });
}
