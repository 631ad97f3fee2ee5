import fs from "node:fs";
import path from "node:path";

/**
 * Where a path really is. `realPath` for what exists; `followSymlinks` also for what does not exist yet (a file
 * about to be written under a symlinked folder, through a dangling link), resolved as the kernel resolves it.
 */

/** The real path of an existing `p` (every symlink resolved), or undefined when it does not exist or cannot be read. */
export function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** Same limit as Linux's MAXSYMLINKS: more hops than this is a loop. */
export const MAX_SYMLINK_HOPS = 40;

export interface FollowedPath {
  /** `start` with every symlink on the way resolved; missing components are kept as written. */
  real: string;
  /** Whether a symlink was followed to get there. */
  viaSymlink: boolean;
}

function components(p: string): string[] {
  return p.split(path.sep).filter((part) => part !== "" && part !== ".");
}

/** Codes readlink gives for what is no symlink: a plain entry (EINVAL) or nothing at all (ENOENT, ENOTDIR). */
function isNoLink(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EINVAL" || code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The walk, written once for both drivers below: it yields each path to look at and is sent back the symlink's
 * target, or undefined when that path is no symlink. One component at a time, each symlink followed before a later
 * `..` (so `a/link/../x` lands where the kernel puts it, not at `a/x`), dangling ones too (a write through one
 * creates its target). Ends with null on a symlink loop.
 */
function* walk(start: string): Generator<string, FollowedPath | null, string | undefined> {
  const pending = components(start);
  let current = path.parse(start).root;
  let hops = 0;
  let viaSymlink = false;
  for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    // Looked at even below a missing component: "missing/../link" must still see that link.
    const target = yield next;
    if (target === undefined) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) return null;
    viaSymlink = true;
    if (path.isAbsolute(target)) current = path.parse(target).root;
    pending.unshift(...components(target));
  }
  return { real: current, viaSymlink };
}

/**
 * `start` (absolute) with its symlinks resolved the way the kernel resolves them, existing or not; null on a loop.
 * One readlink per component, so nothing can change between asking whether it is a link and reading it. Other
 * errors than "no link here" (EACCES) are thrown.
 */
export async function followSymlinks(start: string): Promise<FollowedPath | null> {
  const steps = walk(start);
  let step = steps.next();
  while (!step.done) {
    let target: string | undefined;
    try {
      target = await fs.promises.readlink(step.value);
    } catch (error) {
      if (!isNoLink(error)) throw error;
    }
    step = steps.next(target);
  }
  return step.value;
}

/** `followSymlinks`, synchronously. */
export function followSymlinksSync(start: string): FollowedPath | null {
  const steps = walk(start);
  let step = steps.next();
  while (!step.done) {
    let target: string | undefined;
    try {
      target = fs.readlinkSync(step.value);
    } catch (error) {
      if (!isNoLink(error)) throw error;
    }
    step = steps.next(target);
  }
  return step.value;
}
