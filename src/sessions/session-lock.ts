import fs from "node:fs";
import path from "node:path";
import { locksDir } from "./paths.js";
import { isProcessAlive } from "../runtime/process-alive.js";

export class SessionBusyError extends Error {}


function justCreated(file: string): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs < 2000;
  } catch {
    return false;
  }
}

/**
 * One process per session: an exclusive lock file holding the owner's pid. The checkpointer does not stop
 * two processes from running the same thread (both would redo steps), so this must.
 * A lock whose process is gone (crash, SIGKILL) is stale and taken over.
 */
export class SessionLock {
  private constructor(private readonly file: string) {}

  static acquire(workspace: string, sessionId: string): SessionLock {
    const dir = locksDir(workspace);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${sessionId}.lock`);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: "wx" });
        return new SessionLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const owner = SessionLock.owner(workspace, sessionId);
      if (owner === null && justCreated(file)) {
        // The owner created the file but has not written its pid yet.
        throw new SessionBusyError(`session ${sessionId} is being started by another process`);
      }
      // Our own pid counts as held too: one process must not run a session twice either.
      if (owner !== null && isProcessAlive(owner)) {
        throw new SessionBusyError(`session ${sessionId} is already running in process ${owner}; wait for it or stop it first`);
      }
      // Stale: its process died without cleaning up. Remove and try again (another taker may win the race).
      fs.rmSync(file, { force: true });
    }
    throw new SessionBusyError(`could not lock session ${sessionId}: another process keeps taking it`);
  }

  /** The pid holding the lock, or null when the session is not locked. */
  static owner(workspace: string, sessionId: string): number | null {
    try {
      const pid = Number(fs.readFileSync(path.join(locksDir(workspace), `${sessionId}.lock`), "utf8").trim());
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  }

  static isHeld(workspace: string, sessionId: string): boolean {
    const pid = SessionLock.owner(workspace, sessionId);
    return pid !== null && isProcessAlive(pid);
  }

  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}
