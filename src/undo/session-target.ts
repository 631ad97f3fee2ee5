import fs from "node:fs";
import type { Clock } from "../runtime/clock.js";
import { openSessionIndex } from "../sessions/session-index.js";
import { databasePath } from "../sessions/paths.js";
import { SessionLock } from "../sessions/session-lock.js";
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
}

/** Reads the session index without creating a database in a folder that never had a session. */
function readDatabase(workspace: string, wanted: string | undefined, clock: Clock): DatabaseView {
  if (!fs.existsSync(databasePath(workspace))) return { has: false };
  const database = openSessionIndex(workspace, clock);
  try {
    return {
      latest: database.sessions.latest()?.id,
      has: wanted !== undefined && database.sessions.get(wanted) !== undefined,
    };
  } finally {
    database.close();
  }
}

/**
 * `wanted`, or the latest session: the most recently updated one of the session database, else (no
 * database) the newest baseline of the undo store. Throws UnknownSessionError when there is no such session.
 */
export async function resolveSessionTarget(workspace: string, wanted: string | undefined, store: ShadowStore, clock: Clock): Promise<SessionTarget> {
  if (wanted !== undefined) assertSessionId(wanted);
  const database = readDatabase(workspace, wanted, clock);
  const id = wanted ?? database.latest ?? (await store.latestSession());
  if (id === undefined) throw new UnknownSessionError(`no sessions in ${workspace} yet`);
  const record = await store.session(id);
  if (!record && wanted !== undefined && !database.has) {
    throw new UnknownSessionError(`no session "${wanted}" in ${workspace} (see mini-cursor sessions)`);
  }
  return { id, record, running: SessionLock.isHeld(workspace, id) };
}
