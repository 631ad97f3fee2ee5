import fs from "node:fs";
import path from "node:path";
import type { GitRunner } from "./git-runner.js";
import { diffTrees, treeFolders, type PathDiff } from "./tree-diff.js";
import type { SkippedFile } from "./types.js";
import { isInside } from "../../platform/path-inside.js";

/** The three states undo compares, as commits or trees of the shadow store. */
export interface RestoreInput {
  git: GitRunner;
  workspace: string;
  /** The session's index file: `git checkout` updates it along with the files. */
  index: string;
  before: string;
  after: string;
  current: string;
  /** Folders that were empty at the baseline: never removed. */
  emptyDirs: readonly string[];
}

export interface RestoreResult {
  restored: string[];
  removed: string[];
  skipped: SkippedFile[];
  unchanged: string[];
}

interface Plan {
  remove: string[];
  restore: string[];
  skipped: SkippedFile[];
  unchanged: string[];
}

function laterChange(later: PathDiff): string {
  if (later.kind === "deleted") return "deleted after the session";
  if (later.kind === "created") return "created again after the session deleted it";
  if (later.oldSha === later.newSha) return "its mode changed after the session";
  return "changed after the session (differs from the session's last snapshot)";
}

/**
 * A file the session changed is put back only if it is still exactly as the session left it (its last
 * `after` snapshot); anything else means someone changed it since, and their work wins.
 */
async function plan(input: RestoreInput): Promise<Plan> {
  const { git, before, after, current } = input;
  const [sessionDiffs, sinceAfterList, sinceBeforeList] = await Promise.all([
    diffTrees(git, before, after),
    diffTrees(git, after, current),
    diffTrees(git, before, current),
  ]);
  const sinceAfter = new Map(sinceAfterList.map((d) => [d.path, d]));
  const sinceBefore = new Set(sinceBeforeList.map((d) => d.path));
  const result: Plan = { remove: [], restore: [], skipped: [], unchanged: [] };
  for (const d of sessionDiffs) {
    const later = sinceAfter.get(d.path);
    if (!later) (d.kind === "created" ? result.remove : result.restore).push(d.path);
    else if (!sinceBefore.has(d.path)) result.unchanged.push(d.path);
    else result.skipped.push({ path: d.path, reason: laterChange(later) });
  }
  return result;
}

function lstatOrNull(target: string): fs.Stats | null {
  try {
    return fs.lstatSync(target);
  } catch {
    return null;
  }
}

/** Why a file cannot be written back at `relative` without destroying something there now, or null. */
function obstacle(workspace: string, relative: string): string | null {
  const parts = relative.split("/");
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    const stat = lstatOrNull(path.join(workspace, folder));
    if (stat && (stat.isSymbolicLink() || !stat.isDirectory())) return `its folder ${folder} is now a file or link`;
  }
  const stat = lstatOrNull(path.join(workspace, relative));
  if (stat?.isDirectory()) return "a folder now stands where the file was";
  return null;
}

function ancestors(relative: string): string[] {
  const result: string[] = [];
  for (let dir = path.posix.dirname(relative); dir !== "." && dir !== ""; dir = path.posix.dirname(dir)) result.push(dir);
  return result;
}

/** Removes folders the session created that removing its files left empty, deepest first. */
function pruneFolders(input: RestoreInput, removedFiles: readonly string[], beforeFolders: ReadonlySet<string>): string[] {
  const related = (dir: string) => beforeFolders.has(dir) || input.emptyDirs.some((e) => e === dir || e.startsWith(`${dir}/`) || dir.startsWith(`${e}/`));
  const candidates = [...new Set(removedFiles.flatMap(ancestors))].filter((dir) => !related(dir));
  candidates.sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1));
  const removed: string[] = [];
  for (const dir of candidates) {
    try {
      // rmdir removes only an empty, real folder: never a link, never anything with content.
      fs.rmdirSync(path.join(input.workspace, dir));
      removed.push(`${dir}/`);
    } catch {
      // Not empty (someone put files there) or already gone: leave it.
    }
  }
  return removed;
}

/** Puts every untouched file the session changed back as it was before it; see `plan` for what is left alone. */
export async function restoreSession(input: RestoreInput): Promise<RestoreResult> {
  const planned = await plan(input);
  const skipped = [...planned.skipped];
  const removed: string[] = [];
  for (const relative of planned.remove) {
    const target = path.join(input.workspace, relative);
    let parent: string;
    try {
      parent = fs.realpathSync(path.dirname(target));
    } catch {
      continue;
    }
    if (!isInside(input.workspace, parent)) {
      skipped.push({ path: relative, reason: "its folder now leads outside the workspace" });
      continue;
    }
    try {
      fs.rmSync(target, { force: true });
      removed.push(relative);
    } catch (error) {
      skipped.push({ path: relative, reason: `could not remove it: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
    }
  }
  if (removed.length > 0) removed.push(...pruneFolders(input, removed, await treeFolders(input.git, input.before)));
  const restored: string[] = [];
  for (const relative of planned.restore) {
    const reason = obstacle(input.workspace, relative);
    if (reason) skipped.push({ path: relative, reason });
    else restored.push(relative);
  }
  if (restored.length > 0) {
    // git writes the exact bytes and the mode (644 or 755) or symlink of the baseline.
    await input.git.run(["checkout", input.before, "--pathspec-from-file=-", "--pathspec-file-nul"], {
      index: input.index,
      input: `${restored.join("\0")}\0`,
    });
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  removed.sort();
  return { restored, removed, skipped, unchanged: planned.unchanged };
}
