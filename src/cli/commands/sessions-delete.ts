import type { Clock } from "../../runtime/clock.js";
import { openSessionRecords } from "../../sessions/open-records.js";
import { SessionBusyError } from "../../sessions/session-lock.js";
import type { HeldSessionLock } from "../../sessions/session-records.js";
import { ShadowStore } from "../../undo/shadow-store.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";

/**
 * `mini-cursor sessions delete SESSION`: removes a session that is not running, with all it owns: its index row,
 * checkpoint history (a pending approval or question and queued settings included), recorded model calls and undo
 * records. Its files in the workspace stay as they are; only undoing them is no longer possible.
 */
export async function deleteSession(id: string, workspace: string, json: boolean, io: CliIo, clock: Clock): Promise<number> {
  const index = await openSessionRecords(workspace, io.env, clock, { create: false });
  const where = index?.kind === "postgres" ? `the session database ${index.label}` : workspace;
  let lock: HeldSessionLock | null = null;
  try {
    if (!index || !(await index.sessions.get(id))) throw new UsageError(`no session "${id}" in ${where} (see mini-cursor sessions)`);
    const holder = await index.holder(id);
    if (holder !== null) {
      throw new UsageError(`session ${id} is running in ${holder}; stop it first (Ctrl-C stops it), then delete it`);
    }
    try {
      // Held while deleting: a `resume` cannot start on a half-deleted session.
      lock = await index.lockSession(id);
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
    const rows = await index.deleteSession(id);
    if (!rows) throw new UsageError(`no session "${id}" in ${where} (see mini-cursor sessions)`);
    if (json) {
      io.stdout.write(`${JSON.stringify({ type: "session_deleted", id, ...rows, undo })}\n`);
    } else {
      const records = undo ? "its undo records" : "no undo records";
      io.stdout.write(`Deleted session ${id} (${rows.checkpoints} checkpoints, ${rows.modelCalls} recorded model calls, ${records}).\n`);
    }
    return EXIT.done;
  } finally {
    await lock?.release();
    await index?.close();
  }
}
