import fs from "node:fs";
import type { Clock } from "../../../platform/clock.js";
import { openSessionRecords } from "../../../sessions/open-records.js";
import { UsageError } from "../exit-codes.js";

/** Where a session's files are: the workspace itself, or (a `run --worktree` session) its folder in the worktree. */
export interface SessionPlace {
  /** The session asked for; a worktree session's id when the latest one is one (the worktree's undo store has it). */
  wanted: string | undefined;
  files: string;
  branch: string | null;
}

/**
 * Looks the session (or the workspace's latest) up in the main checkout's session index, without creating one, so
 * that `diff` and `undo` read the undo store where the session's files are.
 */
export async function sessionPlace(workspace: string, wanted: string | undefined, env: NodeJS.ProcessEnv, clock: Clock): Promise<SessionPlace> {
  const records = await openSessionRecords(workspace, env, clock, { create: false }).catch(() => null);
  if (!records) return { wanted, files: workspace, branch: null };
  try {
    const row = wanted !== undefined ? await records.sessions.get(wanted) : await records.sessions.latest();
    if (!row?.worktree) return { wanted, files: workspace, branch: null };
    if (!fs.existsSync(row.worktree)) throw new UsageError(worktreeGone(row.id, row.worktree));
    return { wanted: row.id, files: row.worktree, branch: row.branch };
  } finally {
    await records.close();
  }
}

export function worktreeGone(id: string, folder: string): string {
  return `session ${id} worked in the git worktree ${folder}, which is gone (git worktree remove?); its work is on its branch, if that was kept`;
}
