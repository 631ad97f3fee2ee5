import { decode, RECORDING_FORMAT, type RecordedRequest, type RecordedResponse } from "../../models/recording-codec.js";
import type { RecordingRows } from "../../sessions/session-records.js";
import type { ReplayCall } from "./thread-replay.js";

/** A session's recorded model calls, decoded, and its follow-up turns: what `session/load` replays in order. */
export interface RecordedThread {
  calls: ReplayCall[];
  turns: { firstSeq: number; instruction: string }[];
  /** Recording stopped at its size cap (or a refused write): later calls are missing. */
  truncated: boolean;
}

/**
 * Reads the recording, or null when there is none to replay in order (a session from before recording, or one whose
 * rows this version cannot read): `session/load` then replays what the checkpointed state keeps.
 */
export async function readRecordedThread(recordings: RecordingRows, sessionId: string): Promise<RecordedThread | null> {
  const rows = await recordings.calls(sessionId);
  if (rows.length === 0 || rows.some((row) => row.format !== RECORDING_FORMAT)) return null;
  try {
    const calls = rows.map((row) => ({
      seq: row.seq,
      role: row.role,
      step: row.step,
      request: decode<RecordedRequest>(row.request),
      response: decode<RecordedResponse>(row.response),
    }));
    const [turns, summary] = await Promise.all([recordings.turns(sessionId), recordings.summary(sessionId)]);
    return { calls, turns, truncated: summary?.truncated ?? false };
  } catch {
    return null;
  }
}
