import type Database from "better-sqlite3";
import { RecordingStore } from "./recordings.js";

/** What deleting a session removed from the workspace's SQLite file. */
export interface DeletedRows {
  checkpoints: number;
  writes: number;
  modelCalls: number;
}

/**
 * Removes everything a session owns in the workspace's SQLite file, in one transaction (the inverse of a fork's copy,
 * src/sessions/fork-session.ts): its index row, its recorded model calls, and every `checkpoints` and `writes` row of
 * its thread (a pending approval or question and queued settings are writes). Null, removing nothing, when it has no
 * index row. Its undo records live in the shadow store (ShadowStore.forget).
 */
export function deleteSessionRows(db: Database.Database, id: string): DeletedRows | null {
  const recordings = new RecordingStore(db);
  const hasTable = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  const remove = db.transaction((): DeletedRows | null => {
    if (db.prepare("DELETE FROM mc_sessions WHERE id = ?").run(id).changes === 0) return null;
    const modelCalls = recordings.delete(id);
    // A session killed before its first checkpoint has no saver tables yet in a fresh file.
    const thread = (table: string) => (hasTable(table) ? db.prepare(`DELETE FROM ${table} WHERE thread_id = ?`).run(id).changes : 0);
    return { checkpoints: thread("checkpoints"), writes: thread("writes"), modelCalls };
  });
  return remove.immediate();
}
