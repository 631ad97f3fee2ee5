import type { Clock } from "../../platform/clock.js";
import { openSessionRecords } from "../open-records.js";
import { UnknownSessionError } from "./errors.js";
import { assertSessionId } from "./shadow-repo.js";
import type { SessionRecord, ShadowStore } from "./shadow-store.js";

/** The session a `diff` or `undo` command acts on. */
export interface SessionTarget {
  id: string;
  /** Its snapshots, or undefined when none was recorded (the session changed nothing we know of). */
  record: SessionRecord | undefined;
  /** Its process holds the session lock right now. */
  running: boolean;
}

interface DatabaseView {
  latest?: string;
  has: boolean;
  /** Who runs the session now (src/sessions/session-records.ts holder), or null. */
  holder: string | null;
}

/** Reads the session index (SQLite or PostgreSQL) without creating a database in a folder that never had a session. */
async function readDatabase(workspace: string, wanted: string | undefined, clock: Clock, env: NodeJS.ProcessEnv): Promise<DatabaseView> {
  const database = await openSessionRecords(workspace, env, clock, { create: false });
  if (!database) return { has: false, holder: null };
  try {
    const latest = (await database.sessions.latest())?.id;
    const has = wanted !== undefined && (await database.sessions.get(wanted)) !== undefined;
    const id = wanted ?? latest;
    return { ...(latest !== undefined ? { latest } : {}), has, holder: id === undefined ? null : await database.holder(id) };
  } finally {
    await database.close();
  }
}

/**
 * `wanted`, or the latest session: the most recently updated one of the session database, else (no
 * database) the newest baseline of the undo store. Throws UnknownSessionError when there is no such session.
 */
export async function resolveSessionTarget(
  workspace: string,
  wanted: string | undefined,
  store: ShadowStore,
  clock: Clock,
  env: NodeJS.ProcessEnv,
): Promise<SessionTarget> {
  if (wanted !== undefined) assertSessionId(wanted);
  const database = await readDatabase(workspace, wanted, clock, env);
  const id = wanted ?? database.latest ?? (await store.latestSession());
  if (id === undefined) throw new UnknownSessionError(`no sessions in ${workspace} yet`);
  const record = await store.session(id);
  if (!record && wanted !== undefined && !database.has) {
    throw new UnknownSessionError(`no session "${wanted}" in ${workspace} (see mini-cursor sessions)`);
  }
  // A session the index does not know (only the undo store does) is checked with the workspace's file lock.
  const running = database.holder !== null || (await lockFileHeld(workspace, id));
  return { id, record, running };
}

async function lockFileHeld(workspace: string, id: string): Promise<boolean> {
  const { SessionLock } = await import("../session-lock.js");
  return SessionLock.isHeld(workspace, id);
}
