import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export interface SessionSnapshot {
  row: unknown;
  checkpoints: unknown;
  writes: unknown;
  calls: unknown;
  recording: unknown;
  refs: string;
  meta: string | null;
}

/**
 * Everything stored about one session, as bytes: its index row, checkpoint and write rows, recorded model calls (with
 * their summary and turns), and its undo refs and meta file. Equal snapshots: nothing of the session changed.
 */
export function snapshotOf(root: string, id: string): SessionSnapshot {
  const data = path.join(root, ".mini-cursor");
  const db = new Database(path.join(data, "sessions.sqlite"), { readonly: true });
  try {
    const hex = (sql: string) => (db.prepare(sql).raw().all(id) as unknown[][]).map((r) => r.map((v) => (Buffer.isBuffer(v) ? v.toString("hex") : v)));
    const meta = path.join(data, "shadow.git", "mini-cursor-sessions", `${id}.json`);
    return {
      row: hex("SELECT * FROM mc_sessions WHERE id = ?"),
      checkpoints: hex("SELECT * FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_ns, checkpoint_id"),
      writes: hex("SELECT * FROM writes WHERE thread_id = ? ORDER BY checkpoint_ns, checkpoint_id, task_id, idx"),
      calls: hex("SELECT seq, role, step, model, format, request, response FROM mc_model_calls WHERE session_id = ? ORDER BY seq"),
      recording: [
        ...hex("SELECT calls, bytes, truncated FROM mc_recordings WHERE session_id = ?"),
        ...hex("SELECT first_seq, instruction FROM mc_recording_turns WHERE session_id = ? ORDER BY first_seq"),
      ],
      refs: execFileSync("git", ["--git-dir", path.join(data, "shadow.git"), "for-each-ref", `refs/mini-cursor/${id}/`], { encoding: "utf8" }),
      meta: fs.existsSync(meta) ? fs.readFileSync(meta, "utf8") : null,
    };
  } finally {
    db.close();
  }
}
