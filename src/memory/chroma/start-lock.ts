/**
 * An exclusive lock file (O_EXCL) around "read state / start a server / write state", so two processes that
 * need Chroma in the same data dir at the same moment start one server between them, not two.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { processAlive } from "./state-file.js";
import { ChromaUnavailableError } from "./types.js";

const POLL_MS = 50;
/** A lock file without a pid yet is being written; only treat it as abandoned after this long. */
const EMPTY_LOCK_GRACE_MS = 5_000;

/** Takes the lock, waiting up to `waitMs` for another holder; resolves to the release function. */
export async function acquireStartLock(lockFile: string, waitMs: number): Promise<() => void> {
  // The nonce lets two holders in one process (same pid) tell their locks apart on release.
  const token = `${process.pid}:${randomUUID()}`;
  const deadline = Date.now() + waitMs;
  let holder: number | null = null;
  for (;;) {
    if (tryCreate(lockFile, token)) return () => release(lockFile, token);
    const content = readLock(lockFile);
    holder = content === null ? null : ownerPid(content);
    if (content !== null && isAbandoned(lockFile, holder) && readLock(lockFile) === content) {
      // Its holder died mid-start (crash, SIGKILL): take it over.
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  const who = holder === null ? "another process" : `process ${holder}`;
  throw new ChromaUnavailableError(
    `${who} has been starting Chroma for over ${Math.round(waitMs / 1000)} s (lock ${lockFile}); stop it or delete the lock file`,
  );
}

function tryCreate(lockFile: string, token: string): boolean {
  try {
    fs.writeFileSync(lockFile, token, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function readLock(lockFile: string): string | null {
  try {
    return fs.readFileSync(lockFile, "utf8");
  } catch {
    return null;
  }
}

function ownerPid(content: string): number | null {
  const pid = Number(content.split(":")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAbandoned(lockFile: string, holder: number | null): boolean {
  if (holder !== null) return !processAlive(holder);
  try {
    return Date.now() - fs.statSync(lockFile).mtimeMs > EMPTY_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

function release(lockFile: string, token: string): void {
  if (readLock(lockFile) === token) fs.rmSync(lockFile, { force: true });
}
