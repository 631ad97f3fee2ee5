import type { Clock } from "../../../platform/clock.js";
import { openSessionRecords } from "../../../sessions/open-records.js";
import { SessionBusyError } from "../../../sessions/session-lock.js";
import type { HeldSessionLock } from "../../../sessions/session-records.js";
import { ShadowStore } from "../../../sessions/undo/shadow-store.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import {
  populatedRefusal,
  populatedSubmodules,
  removeWorktree,
  worktreeChanges,
  worktreeTop,
  WorktreeUnavailableError,
  type RemovedWorktree,
} from "../../../sessions/worktree/repository.js";
import { shellQuote } from "../../../host/resume-hint.js";
import fs from "node:fs";
import { errorMessage } from "../../../platform/error-info.js";

/**
 * `mini-cursor sessions delete SESSION`: removes a session that is not running, with all it owns: its index row,
 * checkpoint history (a pending approval or question and queued settings included), recorded model calls and undo
 * records. Its files in the workspace stay as they are; only undoing them is no longer possible. A worktree session's
 * worktree and branch stay too, unless `removeWorktree`: then the worktree goes (refused before anything is deleted
 * when it has uncommitted changes) and its branch with it when merged.
 */
export async function deleteSession(id: string, workspace: string, json: boolean, io: CliIo, clock: Clock, alsoWorktree = false): Promise<number> {
  const index = await openSessionRecords(workspace, io.env, clock, { create: false });
  const where = index?.kind === "postgres" ? `the session database ${index.label}` : workspace;
  let lock: HeldSessionLock | null = null;
  try {
    if (!index || !(await index.sessions.get(id))) throw new UsageError(`no session "${id}" in ${where} (see mini-cursor sessions)`);
    const row = await index.sessions.get(id);
    const files = row?.worktree && fs.existsSync(row.worktree) ? row.worktree : null;
    if (alsoWorktree && !row?.worktree) throw new UsageError(`session ${id} has no worktree; delete it without --worktree`);
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
    const top = files ? await worktreeTop(files, io.env) : null;
    if (alsoWorktree && top) {
      const populated = await populatedSubmodules(top, io.env);
      if (populated.length > 0) throw new UsageError(`${populatedRefusal(top, populated)}; nothing was deleted`);
      const changes = await worktreeChanges(top, io.env);
      if (changes)
        throw new UsageError(
          `the worktree ${top} of session ${id} has uncommitted changes, so nothing was deleted; commit or discard them first (git -C ${shellQuote(top)} status)`,
        );
    }
    // The undo records first: if they cannot be removed, nothing is, and the command can be run again. A worktree
    // session's are in its worktree (gone with it when it was removed).
    let undo: boolean;
    try {
      undo = row?.worktree && !files ? false : await ShadowStore.open(files ?? workspace, { env: io.env, clock }).forget(id);
    } catch (error) {
      throw new Error(`could not delete the undo records of ${id}, so nothing was deleted: ${errorMessage(error)}`);
    }
    const rows = await index.deleteSession(id);
    if (!rows) throw new UsageError(`no session "${id}" in ${where} (see mini-cursor sessions)`);
    const removed = alsoWorktree && top && row?.branch ? await removeOrSay(top, row.branch, io) : null;
    if (json) {
      io.stdout.write(`${JSON.stringify({ type: "session_deleted", id, ...rows, undo, ...(removed ? { worktreeRemoved: removed } : {}) })}\n`);
    } else {
      const records = undo ? "its undo records" : "no undo records";
      io.stdout.write(`Deleted session ${id} (${rows.checkpoints} checkpoints, ${rows.modelCalls} recorded model calls, ${records}).\n`);
      if (removed) {
        const branch = removed.branchDeleted
          ? `and its branch ${removed.branch}`
          : `; its branch ${removed.branch} is kept (${removed.branchKept ?? "not merged"}; git branch -D ${shellQuote(removed.branch)} deletes it)`;
        io.stdout.write(`Removed its worktree ${removed.folder} ${branch}.\n`);
      } else if (row?.worktree && row.branch && files) {
        io.stdout.write(`Its worktree ${top ?? files} and branch ${row.branch} are kept (sessions delete ${id} --worktree removes them).\n`);
      }
    }
    return EXIT.done;
  } finally {
    await lock?.release();
    await index?.close();
  }
}

async function removeOrSay(folder: string, branch: string, io: CliIo): Promise<RemovedWorktree> {
  try {
    return await removeWorktree(folder, branch, io.env);
  } catch (error) {
    // The session is deleted already; the worktree stays and the person is told how to remove it.
    if (error instanceof WorktreeUnavailableError) throw new Error(`deleted the session, but ${error.message}`);
    throw error;
  }
}
