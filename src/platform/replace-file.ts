import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Replaces a file whole: written to a temporary name of this process's own beside it, flushed to disk, renamed over
 * the old one, then the folder flushed, so a reader (or a crash, or another process writing the same file) never
 * sees half a file. The one way files are replaced: our state files (undo's metadata, MCP trust, background
 * processes, Chroma's state) and the workspace tools' writes (src/services/workspace-files/atomic-write.ts, which passes a path inside
 * a folder it holds open and checks where it lands just before the rename).
 */

export interface ReplaceFileOptions {
  /** Permission bits of a new file (default 0644), less the umask unless `exactMode`. */
  mode?: number;
  /** Apply `mode` as given (an existing file's bits, kept across the replacement). */
  exactMode?: boolean;
}

export interface AsyncReplaceFileOptions extends ReplaceFileOptions {
  /** Runs once the data is on disk, just before the rename; throwing stops the write (nothing is replaced). */
  beforeRename?: () => Promise<void>;
}

/**
 * Beside `file`, hidden and unique to this process and call. "wx" (O_CREAT|O_EXCL) opens it, so it never follows or
 * reuses anything already there. Same folder, so the rename stays on one file system and is atomic.
 */
function temporaryFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

const DEFAULT_MODE = 0o644;

/**
 * After the rename, so the new name (not only the data) survives a power loss. Some file systems cannot flush a
 * folder (EINVAL); the file itself is in place by then, so that is no failure.
 */
function syncFolderSync(file: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path.dirname(file), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    fs.fsyncSync(fd);
  } catch {
    // See above.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

async function syncFolder(file: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(path.dirname(file), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    await handle.sync();
  } catch {
    // See syncFolderSync.
  } finally {
    await handle?.close();
  }
}

/** Replaces `file` with `content` (see the module comment). */
export function replaceFileSync(file: string, content: string | Uint8Array, options: ReplaceFileOptions = {}): void {
  const temporary = temporaryFor(file);
  const fd = fs.openSync(temporary, "wx", options.mode ?? DEFAULT_MODE);
  try {
    try {
      fs.writeFileSync(fd, content);
      // The rename must not land before the data does, or a crash could leave an empty file.
      fs.fsyncSync(fd);
      if (options.exactMode && options.mode !== undefined) fs.fchmodSync(fd, options.mode);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncFolderSync(file);
}

/** `replaceFileSync`, asynchronously, with a last check before the rename. */
export async function replaceFile(file: string, content: string | Uint8Array, options: AsyncReplaceFileOptions = {}): Promise<void> {
  const temporary = temporaryFor(file);
  const handle = await fs.promises.open(temporary, "wx", options.mode ?? DEFAULT_MODE);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
      if (options.exactMode && options.mode !== undefined) await handle.chmod(options.mode);
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(file);
}
