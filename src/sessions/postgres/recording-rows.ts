import type pg from "pg";
import type { RecordingRows } from "../session-records.js";
import type { RecordedTurn, RecordingRow, RecordingStop, RecordingSummary } from "../recordings.js";

/** Sums come back as text (BIGINT): numbers here. */
function summaryOf(row: { calls: number; bytes: string; truncated: boolean } | undefined): RecordingSummary | undefined {
  return row ? { calls: row.calls, bytes: Number(row.bytes), truncated: row.truncated } : undefined;
}

/** One model call, its turn mark and the session's totals in one statement (atomic, like SQLite's transaction). */
const APPEND = `WITH turn AS (
    INSERT INTO mc_recording_turns (session_id, first_seq, instruction) SELECT $1, $2, $9::text WHERE $9::text IS NOT NULL
    ON CONFLICT (session_id, first_seq) DO UPDATE SET instruction = excluded.instruction
  ), call AS (
    INSERT INTO mc_model_calls (session_id, seq, role, step, model, format, request, response) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  )
  INSERT INTO mc_recordings (session_id, calls, bytes, truncated) VALUES ($1, $10, $11, FALSE)
  ON CONFLICT (session_id) DO UPDATE SET calls = excluded.calls, bytes = excluded.bytes, truncated = excluded.truncated`;

const CAPPED = `INSERT INTO mc_recordings (session_id, calls, bytes, truncated) VALUES ($1, $2, $3, TRUE)
  ON CONFLICT (session_id) DO UPDATE SET truncated = TRUE`;

/**
 * Recorded model calls in PostgreSQL (src/sessions/recordings.ts has the format and the SQLite ones). A writer
 * queues its rows in order and writes them in the background (a model call does not wait for the database). The
 * first row that fails to write (the database went away or refused it) stops the recording there, told once, so it
 * stays a gap-free prefix of the calls; the run itself fails on its next checkpoint if the database is gone.
 */
export function postgresRecordingRows(pool: pg.Pool): RecordingRows {
  const summary = async (sessionId: string) =>
    summaryOf(
      (
        await pool.query<{ calls: number; bytes: string; truncated: boolean }>("SELECT calls, bytes, truncated FROM mc_recordings WHERE session_id = $1", [
          sessionId,
        ])
      ).rows[0],
    );
  return {
    async turns(sessionId) {
      const { rows } = await pool.query<RecordedTurn>(
        'SELECT first_seq AS "firstSeq", instruction FROM mc_recording_turns WHERE session_id = $1 ORDER BY first_seq',
        [sessionId],
      );
      return rows;
    },
    summary,
    async calls(sessionId) {
      const { rows } = await pool.query<RecordingRow>(
        "SELECT seq, role, step, model, format, request, response FROM mc_model_calls WHERE session_id = $1 ORDER BY seq",
        [sessionId],
      );
      return rows;
    },
    async writer(sessionId, capBytes, onStopped) {
      const last = await pool.query<{ seq: number }>("SELECT COALESCE(MAX(seq), 0)::int AS seq FROM mc_model_calls WHERE session_id = $1", [sessionId]);
      let seq = last.rows[0]?.seq ?? 0;
      let { calls, bytes, truncated } = (await summary(sessionId)) ?? { calls: 0, bytes: 0, truncated: false };
      let queue: Promise<unknown> = Promise.resolve();
      let failed = false;
      const stop = (why: RecordingStop) => {
        truncated = true;
        onStopped(why);
      };
      const enqueue = (text: string, values: unknown[]) => {
        queue = queue.then(async () => {
          // Rows queued behind a failed one are not written: they would leave a hole in the sequence.
          if (failed) return;
          try {
            await pool.query(text, values);
          } catch (error) {
            failed = true;
            if (!truncated) stop({ kind: "failed", detail: (error as Error).message });
            // Best effort: mark what was written as truncated (fails too when the database is gone).
            await pool.query(CAPPED, [sessionId, 0, 0]).catch(() => undefined);
          }
        });
      };
      return {
        append(row) {
          if (truncated) return false;
          const size = row.request.length + row.response.length;
          if (bytes + size > capBytes) {
            enqueue(CAPPED, [sessionId, calls, bytes]);
            stop({ kind: "capped" });
            return false;
          }
          seq += 1;
          calls += 1;
          bytes += size;
          enqueue(APPEND, [sessionId, seq, row.role, row.step, row.model, row.format, row.request, row.response, row.turn ?? null, calls, bytes]);
          return true;
        },
        flush: async () => {
          await queue;
        },
      };
    },
  };
}
