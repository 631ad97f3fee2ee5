import fs from "node:fs";
import path from "node:path";
// The leaf module, not the core barrel: `sessions` and `diff` stay a fast start.
import { STATE_DIR_NAME } from "../core/workspace.js";
import { resolveWorkspace } from "./args.js";

/** The workspace a session command reads sessions from, and the session a worktree folder belongs to. */
export interface SessionWorkspace {
  /** The workspace as given (or the current folder); the main checkout when that is inside a session's worktree. */
  workspace: string;
  /** Run from inside a `run --worktree` session's folder: that session, the default SESSION there. */
  worktreeSession?: string;
}

const WORKTREES = `${path.sep}${STATE_DIR_NAME}${path.sep}worktrees${path.sep}`;

/**
 * `resolveWorkspace`, plus: a folder inside `<checkout>/.mini-cursor/worktrees/<session>` (where `run --worktree`
 * puts a session's worktree, and where a user goes to look at its work or run its tests) stands for that checkout
 * and session, so `sessions`, `resume`, `diff`, `undo`, `fork` and `replay` work from there as from the checkout.
 * The innermost such folder counts (a worktree session started from inside another one's worktree).
 */
export function sessionWorkspace(dir: string | undefined, cwd: string): SessionWorkspace {
  const workspace = resolveWorkspace(dir, cwd);
  const at = `${workspace}${path.sep}`.lastIndexOf(WORKTREES);
  if (at < 0) return { workspace };
  const home = workspace.slice(0, at) || path.sep;
  const session = workspace.slice(at + WORKTREES.length).split(path.sep)[0] ?? "";
  // Only a folder git made a worktree (its `.git` is a file naming the repository's metadata), not any folder so named.
  if (session === "" || !isFile(path.join(home, STATE_DIR_NAME, "worktrees", session, ".git"))) return { workspace };
  return { workspace: home, worktreeSession: session };
}

function isFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}
