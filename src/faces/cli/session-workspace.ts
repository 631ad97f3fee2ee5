import { worktreeHome } from "../../platform/worktree-home.js";
import { resolveWorkspace } from "./args.js";

/** The workspace a session command reads sessions from, and the session a worktree folder belongs to. */
export interface SessionWorkspace {
  /** The workspace as given (or the current folder); the main checkout when that is inside a session's worktree. */
  workspace: string;
  /** Run from inside a `run --worktree` session's folder: that session, the default SESSION there. */
  worktreeSession?: string;
}

/**
 * `resolveWorkspace`, plus: a folder inside `<checkout>/.mini-cursor/worktrees/<session>` (where `run --worktree`
 * puts a session's worktree, and where a user goes to look at its work or run its tests) stands for that checkout
 * and session, so `sessions`, `resume`, `diff`, `undo`, `fork` and `replay` work from there as from the checkout.
 */
export function sessionWorkspace(dir: string | undefined, cwd: string): SessionWorkspace {
  const workspace = resolveWorkspace(dir, cwd);
  const inside = worktreeHome(workspace);
  return inside ? { workspace: inside.home, worktreeSession: inside.session } : { workspace };
}
