import type { Clock } from "../../runtime/clock.js";
import { deleteSessionRows } from "../../sessions/delete-session.js";
import { openExistingSessionIndex } from "../../sessions/session-index.js";
import { SessionBusyError, SessionLock } from "../../sessions/session-lock.js";
import { ShadowStore } from "../../undo/shadow-store.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";

/**
 * `mini-cursor sessions delete SESSION`: removes a session that is not running, with all it owns: its index row,
 * checkpoint history (a pending approval or question and queued settings included), recorded model calls and undo
 * records. Its files in the workspace stay as they are; only undoing them is no longer possible.
 */
export async function deleteSession(id: string, workspace: string, json: boolean, io: CliIo, clock: Clock): Promise<number> {
  const index = openExistingSessionIndex(workspace, clock);
  let lock: SessionLock | null = null;
  try {
    if (!index?.sessions.get(id)) throw new UsageError(`no session "${id}" in ${workspace} (see mini-cursor sessions)`);
    const owner = SessionLock.owner(workspace, id);
    if (owner !== null && SessionLock.isHeld(workspace, id)) {
      throw new UsageError(`session ${id} is running in process ${owner}; stop it first (Ctrl-C stops it), then delete it`);
    }
    try {
      // Held while deleting: a `resume` cannot start on a half-deleted session.
      lock = SessionLock.acquire(workspace, id);
    } catch (error) {
      if (error instanceof SessionBusyError) throw new UsageError(error.message);
      throw error;
    }
    // The undo records first: if they cannot be removed, nothing is, and the command can be run again.
    let undo: boolean;
    try {
      undo = await ShadowStore.open(workspace, { env: io.env, clock }).forget(id);
    } catch (error) {
      throw new Error(`could not delete the undo records of ${id}, so nothing was deleted: ${error instanceof Error ? error.message : String(error)}`);
    }
    const rows = deleteSessionRows(index.db, id);
    if (!rows) throw new UsageError(`no session "${id}" in ${workspace} (see mini-cursor sessions)`);
    if (json) {
      io.stdout.write(`${JSON.stringify({ type: "session_deleted", id, ...rows, undo })}\n`);
    } else {
      const records = undo ? "its undo records" : "no undo records";
      io.stdout.write(`Deleted session ${id} (${rows.checkpoints} checkpoints, ${rows.modelCalls} recorded model calls, ${records}).\n`);
    }
    return EXIT.done;
  } finally {
    lock?.release();
    index?.close();
  }
}
