import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
// The leaf module, not the core barrel: the barrel loads zod, which `sessions` and `diff`/`undo` need not pay for.
import { STATE_DIR_NAME } from "../core/workspace.js";
import { workspaceDataError } from "./data-errors.js";
import { dataDir } from "./paths.js";

/**
 * Creates `<workspace>/.mini-cursor/` if needed. When it is new and the workspace is in a git repository, it is
 * added to the repository's `info/exclude` so it never shows in `git status` (our data is not the project's).
 */
export function ensureDataDir(workspace: string): void {
  const dir = dataDir(workspace);
  const existing = fs.statSync(dir, { throwIfNoEntry: false });
  if (existing?.isDirectory()) return;
  if (existing) throw workspaceDataError(workspace, Object.assign(new Error("not a folder"), { code: "ENOTDIR" }));
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw workspaceDataError(workspace, realCause(dir, error));
  }
  excludeFromGit(workspace);
}

/** Node's recursive mkdir reports ENOENT on a read-only file system: one plain mkdir tells the real cause. */
function realCause(dir: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !fs.existsSync(path.dirname(dir))) return error;
  try {
    fs.mkdirSync(dir);
    return error;
  } catch (plain) {
    return plain;
  }
}

function git(workspace: string, args: string[]): string | null {
  // Time-boxed: a hung git (a lock, a network file system) must not hang the run; failing here only skips the exclude.
  const result = spawnSync("git", args, { cwd: workspace, encoding: "utf8", timeout: 5_000, stdio: ["ignore", "pipe", "ignore"] });
  return result.status === 0 ? result.stdout : null;
}

/** Adds `/<prefix>.mini-cursor/` to info/exclude, once, unless git ignores it already. Best effort: never throws. */
export function excludeFromGit(workspace: string): void {
  try {
    const prefix = git(workspace, ["rev-parse", "--show-prefix"]);
    if (prefix === null) return; // not a git repository, or no git
    // check-ignore exits 0 when the path is ignored by any rule (.gitignore, info/exclude, core.excludesFile).
    if (git(workspace, ["check-ignore", "-q", `${STATE_DIR_NAME}/`]) !== null) return;
    const excludeFile = git(workspace, ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"])?.trim();
    if (!excludeFile) return;
    const entry = `/${prefix.trim()}${STATE_DIR_NAME}/`;
    const current = fs.existsSync(excludeFile) ? fs.readFileSync(excludeFile, "utf8") : "";
    if (current.split("\n").some((line) => line.trim() === entry)) return;
    fs.mkdirSync(path.dirname(excludeFile), { recursive: true });
    const separator = current.length > 0 && !current.endsWith("\n") ? "\n" : "";
    fs.appendFileSync(excludeFile, `${separator}# mini-cursor's session data\n${entry}\n`);
  } catch {
    // A repository we cannot write to: the data still works, it only shows in git status.
  }
}
