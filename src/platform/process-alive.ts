import { readFileSync } from "node:fs";

/**
 * Whether a process is alive: it exists (EPERM means it exists but belongs to someone else) and is not a
 * zombie (a zombie has exited; only its parent's bookkeeping remains). Used for lock owners, the local Chroma
 * server and command process trees alike.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // The state letter follows the command name, which is in parentheses and may itself contain spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return false;
  }
}
