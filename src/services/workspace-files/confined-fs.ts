import { constants, existsSync, openSync, promises as fs, readlinkSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { errorCode } from "../../platform/error-info.js";
import { isInside } from "../../platform/path-inside.js";

/**
 * Opening by path string after a path check is a race: a folder on the way can be swapped for a symlink in
 * between. So the tools open first and then check what was actually opened: on Linux /proc/self/fd/N names the
 * real location of descriptor N, and "/proc/self/fd/N/name" looks `name` up inside the open folder itself, never
 * through the (swappable) path string. Without /proc (other systems) only the earlier path walk protects.
 */
export const CAN_VERIFY_OPENED = existsSync("/proc/self/fd");

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** What the tools opened is not what the path check approved: something on its path was replaced meanwhile. */
export class PathChangedError extends Error {
  readonly code = "EPATHCHANGED";
  constructor(readonly expected: string) {
    super(`${expected} changed while it was being opened`);
  }
}

export function fdPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

/** The real path of what `handle` refers to (with " (deleted)" appended by Linux if it was unlinked since). */
export function openedPath(handle: FileHandle): Promise<string> {
  return fs.readlink(fdPath(handle));
}

/**
 * Opens an existing file for reading without following a symlink in its last component, and without blocking
 * on a FIFO. Callers that opened by a full path must check `openedPath` before reading.
 */
export function openForReading(target: string): Promise<FileHandle> {
  return fs.open(target, READ_FLAGS);
}

/** `openForReading`, synchronously: a descriptor (close it with closeSync). For many small reads in a row. */
export function openForReadingSync(target: string): number {
  return openSync(target, READ_FLAGS);
}

/** `openedPath` of a descriptor, synchronously. */
export function openedPathSync(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

/** A folder held open, so entries are looked up in it and not through its (swappable) path. */
export interface ConfinedDir {
  /** The folder's real path as checked. */
  readonly abs: string;
  /** A path to `name` (one component) inside this very folder, whatever its path string points at by now. */
  entry(name: string): string;
  /** Where the folder is now (it may have been moved since it was opened); `abs` without /proc. */
  current(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens a folder by path (symlinks on the way followed, or not in the last component with O_NOFOLLOW in `flags`)
 * and returns it with `abs` set to what was really opened, for the caller to check.
 */
export async function openDir(dirAbs: string, flags = 0): Promise<ConfinedDir> {
  const handle = await fs.open(dirAbs, DIR_FLAGS | flags);
  const close = (): Promise<void> => handle.close();
  if (!CAN_VERIFY_OPENED) return { abs: dirAbs, entry: (name) => path.join(dirAbs, name), current: async () => dirAbs, close };
  let abs: string;
  try {
    abs = await openedPath(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { abs, entry: (name) => `${fdPath(handle)}/${name}`, current: () => openedPath(handle), close };
}

/** Opens a folder and checks it is exactly `dirAbs`; throws PathChangedError if it is not. */
async function openExactDir(dirAbs: string): Promise<ConfinedDir> {
  const dir = await openDir(dirAbs);
  if (dir.abs !== dirAbs) {
    await dir.close();
    throw new PathChangedError(dirAbs);
  }
  return dir;
}

/** Opens `name` inside `parent` as a folder, creating it if missing; a symlink there means a swap. */
async function openOrMakeChildDir(parent: FileHandle, name: string): Promise<FileHandle> {
  const child = `${fdPath(parent)}/${name}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fs.open(child, DIR_FLAGS | constants.O_NOFOLLOW);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOTDIR" || code === "ELOOP") {
        // A file in the way is the caller's ENOTDIR; a symlink (or a folder by now) means something was swapped.
        const isFile = await fs.lstat(child).then(
          (s) => !s.isSymbolicLink() && !s.isDirectory(),
          () => false,
        );
        if (isFile) throw error;
        throw new PathChangedError(name);
      }
      if (code !== "ENOENT" || attempt > 0) throw error;
    }
    await fs.mkdir(child).catch((error: unknown) => {
      if (errorCode(error) !== "EEXIST") throw error;
    });
  }
}

/**
 * Opens the folder `dirAbs` (a real path inside `root`, as resolveWorkspacePath returns) and checks it is that
 * folder. With `create`, missing folders are made one level at a time, each inside the folder opened before it,
 * so a swap cannot redirect the creation either. Throws ENOENT/ENOTDIR errors as fs does, PathChangedError on a swap.
 */
export async function openConfinedDir(root: string, dirAbs: string, create: boolean): Promise<ConfinedDir> {
  if (!CAN_VERIFY_OPENED) {
    if (create) await fs.mkdir(dirAbs, { recursive: true });
    return { abs: dirAbs, entry: (name) => path.join(dirAbs, name), current: async () => dirAbs, close: async () => undefined };
  }
  try {
    return await openExactDir(dirAbs);
  } catch (error) {
    if (!create || errorCode(error) !== "ENOENT") throw error;
  }
  const rel = path.relative(root, dirAbs);
  if (!isInside(root, dirAbs)) throw new PathChangedError(dirAbs);
  let current = await fs.open(root, DIR_FLAGS);
  try {
    if ((await openedPath(current)) !== root) throw new PathChangedError(root);
    for (const part of rel.split(path.sep).filter((p) => p !== "")) {
      const next = await openOrMakeChildDir(current, part);
      await current.close();
      current = next;
    }
  } catch (error) {
    await current.close();
    throw error;
  }
  const held = current;
  return { abs: dirAbs, entry: (name) => `${fdPath(held)}/${name}`, current: () => openedPath(held), close: () => held.close() };
}
