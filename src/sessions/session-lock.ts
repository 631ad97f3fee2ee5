import path from "node:path";
import { locksDir } from "./paths.js";
import { FileLock } from "../platform/file-lock.js";
import { BusyError } from "./busy-error.js";

export class SessionBusyError extends BusyError {}

function lockFile(workspace: string, sessionId: string): string {
  return path.join(locksDir(workspace), `${sessionId}.lock`);
}

/**
 * One process per session: the checkpointer does not stop two processes from running the same thread (both would
 * redo steps), so this lock must. It fails at once when the session is held (src/platform/file-lock.ts: a lock whose
 * process is gone is taken over, by exactly one contender).
 */
export class SessionLock {
  private constructor(private readonly lock: FileLock) {}

  static acquire(workspace: string, sessionId: string): SessionLock {
    const attempt = FileLock.tryAcquire(lockFile(workspace, sessionId));
    if (attempt.lock) return new SessionLock(attempt.lock);
    // Our own pid counts as held too: one process must not run a session twice either.
    if (attempt.holder !== null) {
      throw new SessionBusyError(`session ${sessionId} is already running in process ${attempt.holder}; wait for it or stop it first`);
    }
    throw new SessionBusyError(`session ${sessionId} is being started by another process`);
  }

  /** The pid holding the lock, or null when the session is not locked. */
  static owner(workspace: string, sessionId: string): number | null {
    return FileLock.owner(lockFile(workspace, sessionId));
  }

  static isHeld(workspace: string, sessionId: string): boolean {
    return FileLock.isHeld(lockFile(workspace, sessionId));
  }

  release(): void {
    this.lock.release();
  }
}
