import fs from "node:fs";
import path from "node:path";
import { logger } from "../../platform/logger.js";
import { StoreBusyError } from "./errors.js";
import { FileLock } from "../../platform/file-lock.js";

const LOCK_NAME = "mini-cursor.lock";
/** Longer than any snapshot or undo of a sane workspace; a lock held this long means something is stuck. */
const WAIT_LIMIT_MS = 120_000;

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

async function acquire(dir: string): Promise<FileLock> {
  const attempt = await FileLock.acquire(path.join(dir, LOCK_NAME), {
    waitMs: WAIT_LIMIT_MS,
    // Runs while the dead owner's lock still stands, so no other process is using the store yet.
    onStale: (pid) => {
      logger.warn(`undo store: taking over a lock left by ${pid === null ? "a process" : `process ${pid}`} that is gone (${dir})`);
      clearGitLocks(dir);
    },
  });
  if (attempt.lock) return attempt.lock;
  throw new StoreBusyError(`the undo store ${dir} stayed locked by another process for ${WAIT_LIMIT_MS / 1000} s`);
}

/** Per store folder, the tail of this process's queue: in-process callers wait here instead of polling the file. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `work` holding the store's lock: one operation at a time per shadow store, across processes (a lock
 * file, src/platform/file-lock.ts, taken over when its process is gone) and within this one (a promise queue).
 */
export async function withStoreLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  let release = (): void => {};
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(dir, tail);
  await previous;
  try {
    const lock = await acquire(dir);
    try {
      return await work();
    } finally {
      lock.release();
    }
  } finally {
    release();
    if (queues.get(dir) === tail) queues.delete(dir);
  }
}
