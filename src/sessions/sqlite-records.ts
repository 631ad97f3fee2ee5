import { deleteSessionRows } from "./delete-session.js";
import { forkSessionRows } from "./fork-session.js";
import { databasePath } from "./paths.js";
import { RecordingStore } from "./recordings.js";
import type { Clock } from "../platform/clock.js";
import type { SessionIndex } from "./session-index.js";
import type { SessionRecords } from "./session-records.js";

/**
 * The workspace's SQLite file as a SessionRecords: today's synchronous stores behind the asynchronous interface,
 * so a run without MINI_CURSOR_DATABASE_URL behaves exactly as before. Locks are files in `.mini-cursor/locks/`.
 */
export function sqliteRecords(index: SessionIndex, workspace: string, clock: Clock): SessionRecords {
  const { db, sessions } = index;
  let recordings: RecordingStore | undefined;
  // Created on first use (its constructor makes the tables): a listing never needs it.
  const store = () => (recordings ??= new RecordingStore(db));
  return {
    kind: "sqlite",
    label: databasePath(workspace),
    sessions: {
      create: async (row) => sessions.create(row),
      get: async (id) => sessions.get(id),
      latest: async () => sessions.latest(),
      list: async (o) => sessions.list(o?.limit),
      update: async (id, fields) => sessions.update(id, fields),
    },
    recordings: {
      turns: async (id) => store().turns(id),
      summary: async (id) => store().summary(id),
      calls: async (id) => store().calls(id),
      writer: async (id, cap, onStopped) => store().writer(id, cap, onStopped),
    },
    deleteSession: async (id) => deleteSessionRows(db, id),
    forkSession: async (from, to) => forkSessionRows(db, from, to, clock),
    // The lock module (and node:crypto with it) loads on demand: most listings have no running row to check.
    lockSession: async (id) => {
      const { SessionLock } = await import("./session-lock.js");
      const lock = SessionLock.acquire(workspace, id);
      return { release: async () => lock.release() };
    },
    holder: async (id) => {
      const { SessionLock } = await import("./session-lock.js");
      if (!SessionLock.isHeld(workspace, id)) return null;
      const owner = SessionLock.owner(workspace, id);
      return owner === null ? "another process" : `process ${owner}`;
    },
    connectionProblem: () => null,
    close: async () => index.close(),
  };
}
