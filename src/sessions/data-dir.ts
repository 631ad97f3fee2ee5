import fs from "node:fs";
import path from "node:path";
// The leaf module, not the core barrel: the barrel loads zod, which `sessions` and `diff`/`undo` need not pay for.
import { STATE_DIR_NAME } from "../core/workspace.js";
import { workspaceDataError } from "./data-errors.js";
import { dataDir } from "./paths.js";
import { runGitSync } from "../platform/git.js";

/** Folders of `.mini-cursor/` that belong to the project (agent and skill files, meant to be committed). */
export const SHARED_DATA_FOLDERS = ["agents", "skills"] as const;

/**
 * Creates `<workspace>/.mini-cursor/` if needed. When it is new and the workspace is in a git repository, its runtime
 * data is added to the repository's `info/exclude` so it never shows in `git status` (our data is not the project's),
 * while its agents/ and skills/ folders stay visible to git. A workspace that has those folders gets the rule of an
 * earlier version (which ignored the whole folder) rewritten.
 */
export function ensureDataDir(workspace: string): void {
  const dir = dataDir(workspace);
  const existing = fs.statSync(dir, { throwIfNoEntry: false });
  if (existing?.isDirectory()) {
    if (SHARED_DATA_FOLDERS.some((f) => fs.existsSync(path.join(dir, f)))) excludeFromGit(workspace);
    return;
  }
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
  return runGitSync(args, { scope: "repository", cwd: workspace, env: process.env, timeoutMs: 5_000 });
}

const COMMENT = "# mini-cursor's session data (its agents/ and skills/ folders may be committed)";
const OLD_COMMENT = "# mini-cursor's session data";

/** The info/exclude lines for a workspace at `prefix` inside its repository. */
export function excludeLines(prefix: string): string[] {
  const base = `/${prefix}${STATE_DIR_NAME}/`;
  return [COMMENT, `${base}*`, ...SHARED_DATA_FOLDERS.map((f) => `!${base}${f}/`)];
}

/**
 * Ignores `/<prefix>.mini-cursor/*` except agents/ and skills/ in info/exclude, once, unless git ignores the runtime
 * data already (a project's own rule wins). An earlier version's `/<prefix>.mini-cursor/` (which hides agents/ too, and
 * git cannot re-include files under an ignored folder) is replaced. Best effort: never throws.
 */
export function excludeFromGit(workspace: string): void {
  try {
    const prefix = git(workspace, ["rev-parse", "--show-prefix"]);
    if (prefix === null) return; // not a git repository, or no git
    const excludeFile = git(workspace, ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"])?.trim();
    if (!excludeFile) return;
    const lines = excludeLines(prefix.trim());
    const current = fs.existsSync(excludeFile) ? fs.readFileSync(excludeFile, "utf8") : "";
    const existing = current.split("\n");
    if (existing.some((line) => line.trim() === lines[1])) return;
    const old = `/${prefix.trim()}${STATE_DIR_NAME}/`;
    const at = existing.findIndex((line) => line.trim() === old);
    if (at >= 0) {
      const from = at > 0 && existing[at - 1]?.trim() === OLD_COMMENT ? at - 1 : at;
      existing.splice(from, at - from + 1, ...lines);
      fs.writeFileSync(excludeFile, existing.join("\n"));
      return;
    }
    // check-ignore exits 0 when the path is ignored by any rule (.gitignore, info/exclude, core.excludesFile).
    if (git(workspace, ["check-ignore", "-q", `${STATE_DIR_NAME}/sessions.sqlite`]) !== null) return;
    fs.mkdirSync(path.dirname(excludeFile), { recursive: true });
    const separator = current.length > 0 && !current.endsWith("\n") ? "\n" : "";
    fs.appendFileSync(excludeFile, `${separator}${lines.join("\n")}\n`);
  } catch {
    // A repository we cannot write to: the data still works, it only shows in git status.
  }
}
