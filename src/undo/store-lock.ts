import fs from "node:fs";
import path from "node:path";
import { logger } from "../runtime/logger.js";
import { StoreBusyError } from "./errors.js";
import { isProcessAlive } from "../runtime/process-alive.js";

const LOCK_NAME = "mini-cursor.lock";
/** Longer than any snapshot or undo of a sane workspace; a lock held this long means something is stuck. */
const WAIT_LIMIT_MS = 120_000;
/** A lock file with no pid yet is fresh for this long (its creator is between open and write). */
const UNWRITTEN_GRACE_MS = 2_000;


function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** True when the lock's owner is gone (crash, SIGKILL): the lock may be taken over. */
function isStale(file: string): boolean {
  let text: string;
  let mtimeMs: number;
  try {
    text = fs.readFileSync(file, "utf8").trim();
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return false;
  }
  const pid = Number(text);
  if (text === "" || !Number.isInteger(pid) || pid <= 0) return Date.now() - mtimeMs > UNWRITTEN_GRACE_MS;
  return !isProcessAlive(pid);
}

/** git's own lock files left by a git process that died with its parent; nothing of ours runs while we hold the lock. */
function clearGitLocks(dir: string): void {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() ?? dir;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory() && (current === dir ? entry.name === "refs" : true)) stack.push(full);
      else if (entry.isFile() && entry.name.endsWith(".lock") && full !== path.join(dir, LOCK_NAME)) fs.rmSync(full, { force: true });
    }
  }
}

async function acquire(dir: string): Promise<string> {
  const file = path.join(dir, LOCK_NAME);
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let pause = 10;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (isStale(file)) {
      logger.warn(`undo store: taking over a lock left by a process that is gone (${file})`);
      fs.rmSync(file, { force: true });
      clearGitLocks(dir);
      continue;
    }
    if (Date.now() > deadline) throw new StoreBusyError(`the undo store ${dir} stayed locked by another process for ${WAIT_LIMIT_MS / 1000} s`);
    await sleep(pause);
    pause = Math.min(pause * 2, 50);
  }
}

/** Per store folder, the tail of this process's queue: in-process callers wait here instead of polling the file. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `work` holding the store's lock: one operation at a time per shadow store, across processes (a lock
 * file with the owner's pid, taken over when that process is gone) and within this one (a promise queue).
 */
export async function withStoreLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  let release = (): void => {};
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(dir, tail);
  await previous;
  try {
    const file = await acquire(dir);
    try {
      return await work();
    } finally {
      fs.rmSync(file, { force: true });
    }
  } finally {
    release();
    if (queues.get(dir) === tail) queues.delete(dir);
  }
}
