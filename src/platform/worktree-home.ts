import fs from "node:fs";
import path from "node:path";
// The leaf module, not the core barrel: `sessions` and `diff` stay a fast start.
import { STATE_DIR_NAME } from "../core/workspace.js";

const WORKTREES = `${path.sep}${STATE_DIR_NAME}${path.sep}worktrees${path.sep}`;

/**
 * The checkout and session a folder belongs to when it lies inside `<checkout>/.mini-cursor/worktrees/<session>`,
 * where `run --worktree` puts a session's git worktree; null elsewhere. `dir` is a real path. The innermost such
 * folder counts (a worktree session started from inside another one's worktree); only a folder git made a worktree
 * (its `.git` is a file naming the repository's metadata) counts, not any folder so named.
 */
export function worktreeHome(dir: string): { home: string; session: string } | null {
  const at = `${dir}${path.sep}`.lastIndexOf(WORKTREES);
  if (at < 0) return null;
  const home = dir.slice(0, at) || path.sep;
  const session = dir.slice(at + WORKTREES.length).split(path.sep)[0] ?? "";
  if (session === "" || !isFile(path.join(home, STATE_DIR_NAME, "worktrees", session, ".git"))) return null;
  return { home, session };
}

function isFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}
