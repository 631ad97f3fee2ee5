import type pg from "pg";
import type { PostgresTarget } from "../../platform/config/database-settings.js";
import type { Clock } from "../../platform/clock.js";
import type { SessionRecords } from "../session-records.js";
import { isConnectionError, openPool, reasonOf, unavailableError } from "./connection.js";
import { postgresRecordingRows } from "./recording-rows.js";
import { migrate, withSchemaLock } from "./schema.js";
import { acquirePostgresSessionLock, lockHolder } from "./session-lock.js";
import { postgresSessionRows } from "./session-rows.js";
import { deletePostgresSession, forkPostgresSession } from "./thread-rows.js";

export interface PostgresRecords extends SessionRecords {
  pool: pg.Pool;
  target: PostgresTarget;
}

/**
 * Sessions in PostgreSQL (MINI_CURSOR_DATABASE_URL): connects, brings mini-cursor's tables to this version (created
 * on first use) and serves this workspace's rows. A database that cannot be reached is one line (exit 2).
 */
export async function openPostgresRecords(target: PostgresTarget, workspace: string, clock: Clock): Promise<PostgresRecords> {
  const pool = await openPool(target);
  try {
    await withSchemaLock(pool, migrate);
  } catch (error) {
    await pool.end().catch(() => {});
    throw unavailableError(error, target) ?? error;
  }
  return {
    kind: "postgres",
    label: target.label,
    pool,
    target,
    sessions: postgresSessionRows(pool, workspace, clock),
    recordings: postgresRecordingRows(pool),
    deleteSession: (id) => deletePostgresSession(pool, id),
    forkSession: (from, to) => forkPostgresSession(pool, from, to, clock),
    lockSession: (id) => acquirePostgresSessionLock(target, id),
    holder: (id) => lockHolder(pool, id),
    connectionProblem: (error) =>
      isConnectionError(error) ? `lost the connection to the session database ${target.label} (${reasonOf(error, target)})` : null,
    close: () => pool.end().catch(() => {}),
  };
}
