import type pg from "pg";
import type { PostgresTarget } from "../../platform/config/database-settings.js";
import { SessionBusyError } from "../session-lock.js";
import type { HeldSessionLock } from "../session-records.js";
import { applicationName, loadPg, unavailableError } from "./connection.js";
import { LOCK_SPACE } from "./schema.js";

/** The session's advisory lock key: FNV-1a of its id, as the signed 32-bit integer PostgreSQL takes. */
export function sessionLockKey(id: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(id, "utf8")) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash | 0;
}

/** Who holds a session's lock (pg_locks shows a two-key lock's second key unsigned, as objid), or null. */
export async function lockHolder(db: pg.Pool | pg.Client, id: string): Promise<string | null> {
  const { rows } = await db.query<{ who: string | null }>(
    `SELECT a.application_name AS who FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.granted LIMIT 1`,
    [LOCK_SPACE, sessionLockKey(id) >>> 0],
  );
  const row = rows[0];
  if (!row) return null;
  const who = row.who?.startsWith("mini-cursor ") ? row.who.slice("mini-cursor ".length) : null;
  return who ? `process ${who.replace(/^pid /, "")}` : "another process";
}

export interface PostgresSessionLock extends HeldSessionLock {
  /** Called once if the lock's connection breaks: the lock is gone with it, so the run must stop. */
  onLost(listener: (reason: string) => void): void;
}

/**
 * One process runs a session at a time, across machines: a session-level advisory lock on a connection of its own,
 * held for the run. A crashed or killed holder's connection closes and the lock goes with it; so does a connection
 * the server drops, which `onLost` reports. SessionBusyError, naming the holder, when another process has it.
 */
export async function acquirePostgresSessionLock(target: PostgresTarget, id: string): Promise<PostgresSessionLock> {
  const { Client } = await loadPg();
  const client = new Client({ connectionString: target.url, application_name: applicationName(), connectionTimeoutMillis: 10_000, keepAlive: true });
  let lost: string | null = null;
  let listener: ((reason: string) => void) | null = null;
  let released = false;
  const breakOff = (reason: string) => {
    if (released || lost !== null) return;
    lost = reason;
    listener?.(reason);
  };
  client.on("error", (error) => breakOff(error.message));
  client.on("end", () => breakOff("the connection closed"));
  try {
    await client.connect();
  } catch (error) {
    released = true;
    throw unavailableError(error, target) ?? error;
  }
  const key = sessionLockKey(id);
  const { rows } = await client.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS got", [LOCK_SPACE, key]);
  if (rows[0]?.got !== true) {
    const holder = await lockHolder(client, id).catch(() => null);
    released = true;
    await client.end().catch(() => {});
    throw new SessionBusyError(
      `session ${id} is already running in ${holder ?? "another process"} (its lock is in the session database ${target.label}); wait for it or stop it first`,
    );
  }
  return {
    onLost(l) {
      listener = l;
      if (lost !== null) l(lost);
    },
    async release() {
      if (released) return;
      released = true;
      // Closing the connection releases the lock too; unlocking first says so at once.
      await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_SPACE, key]).catch(() => {});
      await client.end().catch(() => {});
    },
  };
}
