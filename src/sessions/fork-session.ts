import type Database from "better-sqlite3";
import type { Clock } from "../platform/clock.js";
import { RecordingStore } from "./recordings.js";

/** What a fork copied: the rows of the original's checkpoint history. */
export interface ForkCopy {
  checkpoints: number;
  writes: number;
}

/** A checkpoint's metadata names its thread only if a run put it there: rewritten so nothing points at the original. */
function rewriteMetadata(type: string | null, metadata: unknown, from: string, to: string): unknown {
  if (type !== "json" || !(metadata instanceof Uint8Array || typeof metadata === "string")) return metadata;
  const text = typeof metadata === "string" ? metadata : Buffer.from(metadata).toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return metadata;
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { thread_id?: unknown }).thread_id !== from) return metadata;
  const rewritten = JSON.stringify({ ...parsed, thread_id: to });
  return typeof metadata === "string" ? rewritten : Buffer.from(rewritten, "utf8");
}

/**
 * Copies a session into a new id inside the workspace's SQLite file, in one transaction: its index row (status, task,
 * turns, tokens, options), its recorded model calls and its whole checkpoint history, every `checkpoints` and `writes` row of its thread (a
 * pending approval or question and queued settings are writes) rewritten to the new thread id. The original's rows
 * are only read. Fails, copying nothing, when the new id exists or the original has no row.
 */
export function forkSessionRows(db: Database.Database, from: string, to: string, clock: Clock): ForkCopy {
  const recordings = new RecordingStore(db);
  const hasTable = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  const copy = db.transaction((): ForkCopy => {
    if (db.prepare("SELECT 1 FROM mc_sessions WHERE id = ?").get(to) !== undefined) throw new Error(`session ${to} already exists`);
    const columns = (db.prepare("PRAGMA table_info(mc_sessions)").all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== "id" && c !== "created_at" && c !== "updated_at");
    const list = columns.join(", ");
    // Created and updated now: the fork is the newest session (a bare `resume` continues it).
    const now = clock.now();
    const copied = db
      .prepare(`INSERT INTO mc_sessions (id, created_at, updated_at, ${list}) SELECT ?, ?, ?, ${list} FROM mc_sessions WHERE id = ?`)
      .run(to, now, now, from);
    if (copied.changes !== 1) throw new Error(`no session ${from} to fork`);
    // Its recorded model calls too, so a replay of the fork starts as the original's does.
    recordings.copy(from, to);
    // A session killed before its first checkpoint has no saver tables yet in a fresh file.
    if (!hasTable("checkpoints") || !hasTable("writes")) return { checkpoints: 0, writes: 0 };
    const rows = db
      .prepare("SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM checkpoints WHERE thread_id = ?")
      .all(from) as {
      checkpoint_ns: string;
      checkpoint_id: string;
      parent_checkpoint_id: string | null;
      type: string | null;
      checkpoint: unknown;
      metadata: unknown;
    }[];
    const insert = db.prepare(
      "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (const r of rows)
      insert.run(to, r.checkpoint_ns, r.checkpoint_id, r.parent_checkpoint_id, r.type, r.checkpoint, rewriteMetadata(r.type, r.metadata, from, to));
    const writes = db
      .prepare(
        "INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value) SELECT ?, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value FROM writes WHERE thread_id = ?",
      )
      .run(to, from);
    return { checkpoints: rows.length, writes: writes.changes };
  });
  return copy.immediate();
}
