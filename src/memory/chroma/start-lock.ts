/**
 * An exclusive lock around "read state / start a server / write state", so two processes that need Chroma in the
 * same data dir at the same moment start one server between them, not two (src/platform/file-lock.ts).
 */
import { FileLock } from "../../platform/file-lock.js";
import { ChromaUnavailableError } from "./types.js";

/** A lock file without a pid yet is being written by something else; only treat it as abandoned after this long. */
const EMPTY_LOCK_GRACE_MS = 5_000;

/** Takes the lock, waiting up to `waitMs` for another holder; resolves to the release function. */
export async function acquireStartLock(lockFile: string, waitMs: number): Promise<() => void> {
  const attempt = await FileLock.acquire(lockFile, { waitMs, graceMs: EMPTY_LOCK_GRACE_MS });
  // Each acquisition has its own token, so two holders in one process (same pid) release only their own lock.
  if (attempt.lock) return () => attempt.lock.release();
  const who = attempt.holder === null ? "another process" : `process ${attempt.holder}`;
  throw new ChromaUnavailableError(
    `${who} has been starting Chroma for over ${Math.round(waitMs / 1000)} s (lock ${lockFile}); stop it or delete the lock file`,
  );
}
