import type Database from "better-sqlite3";

/**
 * A session's model traffic, one row per model call in call order, beside its checkpoints (same SQLite file).
 * Rows hold opaque blobs: src/models/recording-codec.ts decides what is in them, and `format` says which version of
 * that encoding wrote a row, so a later version can refuse (or convert) rows it does not understand.
 */
export interface RecordingRow {
  seq: number;
  /** The planner or the agent's name. */
  role: string;
  /** The plan step running when the call was made (null: the planner between steps). */
  step: string | null;
  /** The model name the call went to (for prices and for the person reading a replay). */
  model: string;
  format: number;
  request: Buffer;
  response: Buffer;
}

export interface RecordingSummary {
  calls: number;
  bytes: number;
  /** Recording stopped at the size cap: later calls are missing. */
  truncated: boolean;
}

/**
 * Why a writer stopped recording, told once: the size cap, or a write the database refused (the disk is full, the
 * database went away). Either way the session goes on, and the recording is a gap-free prefix of its calls.
 */
export type RecordingStop = { kind: "capped" } | { kind: "failed"; detail: string };

/** Per session; beyond it recording stops (with one notice) and the session goes on. */
export const DEFAULT_RECORDING_CAP_BYTES = 50 * 1024 * 1024;

export class RecordingStore {
  constructor(private readonly db: Database.Database) {
    // Created on first use: databases from before recording existed get the tables when a session next runs.
    db.exec(`CREATE TABLE IF NOT EXISTS mc_model_calls (
      session_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL,
      step TEXT,
      model TEXT NOT NULL DEFAULT '',
      format INTEGER NOT NULL,
      request BLOB NOT NULL,
      response BLOB NOT NULL,
      PRIMARY KEY (session_id, seq)
    )`);
    db.exec(`CREATE TABLE IF NOT EXISTS mc_recordings (
      session_id TEXT PRIMARY KEY,
      calls INTEGER NOT NULL DEFAULT 0,
      bytes INTEGER NOT NULL DEFAULT 0,
      truncated INTEGER NOT NULL DEFAULT 0
    )`);
    // Follow-up turns (`resume --message`): the instruction, and the first call made for it.
    db.exec(`CREATE TABLE IF NOT EXISTS mc_recording_turns (
      session_id TEXT NOT NULL,
      first_seq INTEGER NOT NULL,
      instruction TEXT NOT NULL,
      PRIMARY KEY (session_id, first_seq)
    )`);
  }

  /** The follow-up turns of a session's recording, in order. */
  turns(sessionId: string): RecordedTurn[] {
    return this.db
      .prepare("SELECT first_seq AS firstSeq, instruction FROM mc_recording_turns WHERE session_id = ? ORDER BY first_seq")
      .all(sessionId) as RecordedTurn[];
  }

  summary(sessionId: string): RecordingSummary | undefined {
    const row = this.db.prepare("SELECT calls, bytes, truncated FROM mc_recordings WHERE session_id = ?").get(sessionId) as
      { calls: number; bytes: number; truncated: number } | undefined;
    return row ? { calls: row.calls, bytes: row.bytes, truncated: row.truncated !== 0 } : undefined;
  }

  calls(sessionId: string): RecordingRow[] {
    return this.db
      .prepare("SELECT seq, role, step, model, format, request, response FROM mc_model_calls WHERE session_id = ? ORDER BY seq")
      .all(sessionId) as RecordingRow[];
  }

  /**
   * A writer for one session (a resumed session appends after its earlier calls). `append` returns false, and writes
   * nothing, once the session's recording would pass `capBytes` or a write failed; `onStopped` is told once.
   */
  writer(sessionId: string, capBytes = DEFAULT_RECORDING_CAP_BYTES, onStopped: (why: RecordingStop) => void = () => {}): RecordingWriter {
    const insert = this.db.prepare(
      "INSERT INTO mc_model_calls (session_id, seq, role, step, model, format, request, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const upsert = this.db.prepare(
      `INSERT INTO mc_recordings (session_id, calls, bytes, truncated) VALUES (?, ?, ?, ?)
       ON CONFLICT(session_id) DO UPDATE SET calls = excluded.calls, bytes = excluded.bytes, truncated = excluded.truncated`,
    );
    const markTurn = this.db.prepare("INSERT OR REPLACE INTO mc_recording_turns (session_id, first_seq, instruction) VALUES (?, ?, ?)");
    const last = this.db.prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM mc_model_calls WHERE session_id = ?").get(sessionId) as { seq: number };
    const start = this.summary(sessionId) ?? { calls: 0, bytes: 0, truncated: false };
    let { calls, bytes, truncated } = start;
    let seq = last.seq;
    // The counters move only once the transaction commits: a refused write leaves no gap in `seq`.
    const write = this.db.transaction((row: NewRecordingRow, size: number) => {
      const next = seq + 1;
      if (row.turn !== undefined) markTurn.run(sessionId, next, row.turn);
      insert.run(sessionId, next, row.role, row.step, row.model, row.format, row.request, row.response);
      upsert.run(sessionId, calls + 1, bytes + size, 0);
    });
    const stop = (why: RecordingStop) => {
      truncated = true;
      try {
        upsert.run(sessionId, calls, bytes, 1);
      } catch {
        // The database refuses writes: the summary stays as the last call that was written.
      }
      onStopped(why);
    };
    return {
      append(row) {
        if (truncated) return false;
        const size = row.request.length + row.response.length;
        if (bytes + size > capBytes) {
          stop({ kind: "capped" });
          return false;
        }
        try {
          write(row, size);
        } catch (error) {
          stop({ kind: "failed", detail: (error as Error).message });
          return false;
        }
        seq += 1;
        calls += 1;
        bytes += size;
        return true;
      },
      flush: () => Promise.resolve(),
    };
  }

  /** Gives `to` a copy of `from`'s recording (a fork shares its original's history, so its replay starts the same). */
  copy(from: string, to: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO mc_model_calls (session_id, seq, role, step, model, format, request, response) SELECT ?, seq, role, step, model, format, request, response FROM mc_model_calls WHERE session_id = ?",
        )
        .run(to, from);
      this.db
        .prepare(
          "INSERT INTO mc_recording_turns (session_id, first_seq, instruction) SELECT ?, first_seq, instruction FROM mc_recording_turns WHERE session_id = ?",
        )
        .run(to, from);
      this.db
        .prepare("INSERT INTO mc_recordings (session_id, calls, bytes, truncated) SELECT ?, calls, bytes, truncated FROM mc_recordings WHERE session_id = ?")
        .run(to, from);
    })();
  }

  /** Removes a session's recording (for whatever deletes or prunes sessions); returns how many calls it had. */
  delete(sessionId: string): number {
    const calls = this.db.prepare("DELETE FROM mc_model_calls WHERE session_id = ?").run(sessionId).changes;
    this.db.prepare("DELETE FROM mc_recordings WHERE session_id = ?").run(sessionId);
    this.db.prepare("DELETE FROM mc_recording_turns WHERE session_id = ?").run(sessionId);
    return calls;
  }
}

export interface RecordedTurn {
  firstSeq: number;
  instruction: string;
}

/** A call to append; `turn`: the follow-up instruction whose first call this is. */
export type NewRecordingRow = Omit<RecordingRow, "seq"> & { turn?: string };

export interface RecordingWriter {
  /** False, writing nothing, once the recording is at its cap. A store that writes asynchronously queues the row. */
  append(row: NewRecordingRow): boolean;
  /** Settles when every appended row is written (at once for SQLite's synchronous writes). */
  flush(): Promise<void>;
}
