/**
 * The one cross-process lock: a file naming its owner (`<pid>:<random token>`), used for sessions, the undo
 * store and the Chroma start. A lock whose owner is gone (crash, SIGKILL) is stale and may be taken over.
 *
 * Why takeover is safe with many contenders: a lock file is created whole (written to a private temp file, then
 * hard-linked to its name, which fails if the name exists), so a reader never sees it half written. To remove a
 * stale lock, a process must first create, exclusively, a marker named after that exact lock generation (its
 * inode, time, size and content, which holds a random token). Only one process can hold that marker; it re-reads
 * the lock under it and removes it only if it is still the same generation. Nobody else can remove or change that
 * generation meanwhile (its owner is dead and every other remover needs the same marker), so a contender that judged
 * the lock stale a moment ago can never remove the fresh lock a winner has just created: its re-read sees another
 * generation. A marker whose creator died is itself a stale lock and is broken the same way, one level up.
 */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isProcessAlive } from "./process-alive.js";
import { uniqueToken } from "./unique-token.js";

export interface FileLockOptions {
  /**
   * A lock file without a readable pid (written by something else, or an older version mid-write) counts as held
   * for this long after its last change, then as stale.
   */
  graceMs?: number;
  /** Runs when this process has the right to remove a stale lock, before removing it: clear what its owner left. */
  onStale?: (ownerPid: number | null) => void;
}

/** Either the lock, or who holds it (null: a process is creating or taking it over right now, or unknown). */
export type LockAttempt = { lock: FileLock; holder?: undefined } | { lock: null; holder: number | null };

interface Snapshot {
  /** Identifies this generation of the file: a new lock never has the same one (its token is random). */
  id: string;
  pid: number | null;
  mtimeMs: number;
}

const DEFAULT_GRACE_MS = 2_000;
/** Markers of markers: each level needs another process to die within microseconds; three is plenty. */
const MAX_BREAK_DEPTH = 3;
const ATTEMPTS = 20;

/** Locks this process holds, removed on exit: a second Ctrl-C (process.exit) must not leave them behind. */
const held = new Set<FileLock>();
let exitHookInstalled = false;

export class FileLock {
  private constructor(
    readonly file: string,
    private readonly token: string,
  ) {}

  /** One try, without waiting: the lock, or who holds it. A lock held by a live process (this one too) is held. */
  static tryAcquire(file: string, options: FileLockOptions = {}): LockAttempt {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const token = `${process.pid}:${uniqueToken()}`;
    const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (createExclusive(file, token)) return { lock: FileLock.adopt(file, token) };
      const seen = readSnapshot(file);
      if (seen === null) continue; // released between our create and our read
      if (!isStale(seen, graceMs)) return { lock: null, holder: seen.pid };
      const outcome = breakStale(file, seen, graceMs, options.onStale, 0);
      // Another live process is taking the stale lock over right now: it gets it.
      if (outcome === "busy") return { lock: null, holder: null };
    }
    return { lock: null, holder: FileLock.owner(file) };
  }

  /** Tries until `waitMs` has passed (polling briefly); the last attempt when it is still held by then. */
  static async acquire(file: string, options: FileLockOptions & { waitMs: number }): Promise<LockAttempt> {
    const deadline = Date.now() + options.waitMs;
    let pause = 10;
    for (;;) {
      const attempt = FileLock.tryAcquire(file, options);
      if (attempt.lock !== null || Date.now() >= deadline) return attempt;
      await sleep(pause);
      pause = Math.min(pause * 2, 50);
    }
  }

  /** The pid named in the lock file, or null when there is none (or it names no pid). */
  static owner(file: string): number | null {
    return readSnapshot(file)?.pid ?? null;
  }

  /** Whether a live process holds the lock. */
  static isHeld(file: string): boolean {
    const pid = FileLock.owner(file);
    return pid !== null && isProcessAlive(pid);
  }

  private static adopt(file: string, token: string): FileLock {
    const lock = new FileLock(file, token);
    held.add(lock);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", () => {
        for (const lock of [...held]) lock.release();
      });
    }
    return lock;
  }

  /** Removes the lock if it is still ours. Twice is harmless. */
  release(): void {
    if (!held.delete(this)) return;
    // Nobody else removes a live owner's lock, so it cannot change between this read and the removal.
    if (readContent(this.file) === this.token) fs.rmSync(this.file, { force: true });
  }
}

/** Creates `file` holding `content`, whole and only if it does not exist. */
function createExclusive(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}-${uniqueToken()}.tmp`;
  fs.writeFileSync(temp, content, { flag: "wx" });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A file system without hard links: exclusive create (readers treat the empty moment through the grace time).
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP") return createInPlace(file, content);
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function createInPlace(file: string, content: string): boolean {
  try {
    fs.writeFileSync(file, content, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function readContent(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Content and identity read through one descriptor, so both describe the same file. */
function readSnapshot(file: string): Snapshot | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    const content = fs.readFileSync(fd, "utf8");
    const id = fileNameHash(`${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.size}:${content}`);
    return { id, pid: parsePid(content), mtimeMs: stat.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * 16 hex digits of two 32-bit FNV-1a hashes: safe in a file name whatever the lock file holds. Not node:crypto, which
 * light commands would otherwise load just for this; the marker needs to tell lock generations apart, not resist an
 * attacker (whoever can write the lock file can remove it anyway).
 */
function fileNameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** The marker a process must hold to remove the lock as it is now (null: no lock). */
export function takeoverMarker(file: string): string | null {
  const seen = readSnapshot(file);
  return seen === null ? null : markerOf(file, seen);
}

function markerOf(file: string, seen: Snapshot): string {
  return `${file}.break-${seen.id}`;
}

/** `<pid>:<token>`, or a bare pid (locks written by older versions). */
function parsePid(content: string): number | null {
  const match = /^\s*(\d+)(?::\S*)?\s*$/.exec(content);
  const pid = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

function isStale(seen: Snapshot, graceMs: number): boolean {
  if (seen.pid !== null) return !isProcessAlive(seen.pid);
  return Date.now() - seen.mtimeMs > graceMs;
}

/**
 * Removes `file` if it is still the generation `seen`, holding that generation's marker (see the top of this file).
 * "busy": a live process holds the marker; "done": removed, or it had changed already (look again).
 */
function breakStale(file: string, seen: Snapshot, graceMs: number, onStale: FileLockOptions["onStale"], depth: number): "busy" | "done" {
  const marker = markerOf(file, seen);
  const token = `${process.pid}:${uniqueToken()}`;
  if (!createExclusive(marker, token)) {
    const other = readSnapshot(marker);
    if (other === null) return "done";
    if (!isStale(other, graceMs) || depth >= MAX_BREAK_DEPTH) return "busy";
    // Its creator died while breaking the lock: break the marker the same way, then look again.
    return breakStale(marker, other, graceMs, undefined, depth + 1);
  }
  try {
    if (readSnapshot(file)?.id !== seen.id) return "done";
    onStale?.(seen.pid);
    fs.rmSync(file, { force: true });
    return "done";
  } finally {
    // Safe to drop at once: a late contender that takes this marker re-reads the lock and finds a new generation.
    if (readContent(marker) === token) fs.rmSync(marker, { force: true });
  }
}
