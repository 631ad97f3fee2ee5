import { promises as fs } from "node:fs";
import path from "node:path";
import { openConfinedDir, PathChangedError, type ConfinedDir } from "./confined-fs.js";
import { errorCode } from "../../platform/error-info.js";
import { replaceFile } from "../../platform/replace-file.js";

export interface AtomicWriteResult {
  /** True when the file did not exist before. */
  created: boolean;
  /** Size before the write (0 when created). */
  previousBytes: number;
  bytes: number;
}

/** A write refused by the landing check: what it would land on is not what was approved. */
export class LandingRefusedError extends Error {
  readonly code = "ELANDING";
}

/** Why the real path `abs` may not be written now (a sentence for the model), or undefined when it may. */
export type LandingCheck = (abs: string) => string | undefined;

async function checkLanding(dir: ConfinedDir, name: string, check: LandingCheck | undefined, at?: string): Promise<void> {
  if (!check) return;
  const refused = check(path.join(at ?? (await dir.current()), name));
  if (refused !== undefined) throw new LandingRefusedError(refused);
}

/**
 * Writes `content` to `name` in the open folder `dir` so readers see either the old or the new file, never half
 * of one (src/platform/replace-file.ts: a temporary file beside it, flushed, renamed over it, the folder flushed).
 * Both are addressed through the open folder, so a swapped path cannot redirect them. An existing file keeps its
 * permission bits; a symlink in its place means the path changed after it was checked.
 */
export async function atomicWriteIn(dir: ConfinedDir, name: string, content: string, check?: LandingCheck): Promise<AtomicWriteResult> {
  const target = dir.entry(name);
  // Judged on the folder actually held open, before anything is created in it, and again just before the rename: a
  // folder moved meanwhile (renameat2 RENAME_EXCHANGE) is seen where it is by then.
  await checkLanding(dir, name, check, dir.abs);
  let previous: { mode: number; size: number } | undefined;
  try {
    const stat = await fs.lstat(target);
    if (stat.isSymbolicLink()) throw new PathChangedError(path.join(dir.abs, name));
    previous = { mode: stat.mode & 0o7777, size: stat.size };
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  const data = Buffer.from(content, "utf8");
  // A new file gets the usual 0666 less the umask; an existing one keeps its bits exactly.
  await replaceFile(target, data, { mode: previous?.mode ?? 0o666, exactMode: previous !== undefined, beforeRename: () => checkLanding(dir, name, check) });
  return { created: previous === undefined, previousBytes: previous?.size ?? 0, bytes: data.length };
}

/**
 * atomicWriteIn for the real path `abs` inside `root` (as resolveWorkspacePath returns it): the parent folder is
 * opened and checked (missing ones are created one level at a time inside checked folders) before writing.
 */
export async function atomicWriteFile(root: string, abs: string, content: string, check?: LandingCheck): Promise<AtomicWriteResult> {
  const dir = await openConfinedDir(root, path.dirname(abs), true);
  try {
    return await atomicWriteIn(dir, path.basename(abs), content, check);
  } finally {
    await dir.close();
  }
}
