import fs from "node:fs";
import path from "node:path";
import { FileLock } from "../platform/file-lock.js";
import { BusyError } from "./busy-error.js";
import { ensureDataDir } from "./data-dir.js";
import { locksDir } from "./paths.js";

export class WorkspaceBusyError extends BusyError {}

const WORKSPACE_LOCK = "workspace.lock";

function lockFile(workspace: string): string {
  return path.join(locksDir(workspace), WORKSPACE_LOCK);
}

/** The session a process is running: the session lock it holds beside the workspace lock (src/sessions/session-lock.ts). */
function sessionOf(workspace: string, pid: number): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(locksDir(workspace));
  } catch {
    return null;
  }
  for (const name of names) {
    if (!name.endsWith(".lock") || name === WORKSPACE_LOCK) continue;
    if (FileLock.owner(path.join(locksDir(workspace), name)) === pid) return name.slice(0, -".lock".length);
  }
  return null;
}

/**
 * One running session per workspace: two sessions editing the same files make each other's reports (and `diff`)
 * wrong. Held by `run` and `resume` for the whole session; a lock whose process is gone (a crash) is taken over.
 */
export class WorkspaceLock {
  private constructor(private readonly lock: FileLock | null) {}

  /**
   * The lock, or WorkspaceBusyError naming the running session. `force` goes on without the lock when it is held
   * (the user accepts two sessions at once); it still takes the lock when it is free.
   */
  static acquire(workspace: string, options: { force: boolean; flag: string }): WorkspaceLock {
    ensureDataDir(workspace);
    const attempt = FileLock.tryAcquire(lockFile(workspace));
    if (attempt.lock) return new WorkspaceLock(attempt.lock);
    if (options.force) return new WorkspaceLock(null);
    const session = attempt.holder === null ? null : sessionOf(workspace, attempt.holder);
    const who = session
      ? `session ${session} is running in this workspace (process ${attempt.holder})`
      : attempt.holder !== null
        ? `another session is running in this workspace (process ${attempt.holder})`
        : "another session is starting in this workspace";
    throw new WorkspaceBusyError(`${who}; wait for it to finish, stop it, or start anyway with ${options.flag} (both sessions then change the same files)`);
  }

  /** The pid of the process running a session in the workspace, or null. */
  static holder(workspace: string): number | null {
    const file = lockFile(workspace);
    return FileLock.isHeld(file) ? FileLock.owner(file) : null;
  }

  release(): void {
    this.lock?.release();
  }
}
