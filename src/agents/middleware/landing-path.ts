import fs from "node:fs";
import path from "node:path";

/** Same limit as Linux's MAXSYMLINKS (and src/tools/workspace-path.ts). */
const MAX_SYMLINK_HOPS = 40;

function components(p: string): string[] {
  return p.split(path.sep).filter((part) => part !== "" && part !== ".");
}

function linkTarget(p: string): string | undefined {
  try {
    return fs.lstatSync(p).isSymbolicLink() ? fs.readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a write to `file` lands, relative to the workspace, resolved as the kernel and the file tools resolve it:
 * one component at a time, each symlink followed before a later `..` (so `q/link/../.mcp.json` is judged where it
 * lands, not as `q/.mcp.json`), dangling symlinks followed too (a write through one creates its target). Only
 * classifies a path; the tools confine it themselves. A symlink loop gives the path as spelled.
 */
export function landingRelative(workspace: string, file: string): string {
  if (!workspace || !file) return file;
  let root = workspace;
  try {
    root = fs.realpathSync.native(workspace);
  } catch {
    // Judged against the path as given.
  }
  const start = path.isAbsolute(file) ? file : `${workspace}${path.sep}${file}`;
  const pending = components(start);
  let current = path.parse(start).root;
  let hops = 0;
  for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    const target = linkTarget(next);
    if (target === undefined) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) return path.relative(workspace, path.resolve(workspace, file));
    if (path.isAbsolute(target)) current = path.parse(target).root;
    pending.unshift(...components(target));
  }
  return path.relative(root, current);
}
