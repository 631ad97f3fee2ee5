import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../paths.js";
import { InvalidSessionIdError } from "./errors.js";
import type { GitRunner } from "./git-runner.js";
import { replaceFileSync } from "../../platform/replace-file.js";
import { PRIVATE_ATTRIBUTES } from "../../platform/git.js";

/**
 * Never tracked, whatever the workspace's .gitignore says: the user's repository, our own data (the shadow
 * store would otherwise snapshot itself) and installed packages. Beyond these, git applies the workspace's
 * .gitignore files, so ignored files are not tracked and undo cannot bring them back.
 */
export const ALWAYS_EXCLUDED: readonly string[] = [".git", ".mini-cursor/", "node_modules/"];

const EXCLUDE_FILE = `# written by mini-cursor: never tracked by the undo store\n${ALWAYS_EXCLUDED.join("\n")}\n`;

/** Keeps the store out of the user's own `git status` when `.mini-cursor/` is not in their .gitignore. */
const SELF_IGNORE = "*\n";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function shadowDir(workspace: string): string {
  return path.join(dataDir(workspace), "shadow.git");
}

/** Session ids become ref names and file names: only plain, safe ones. */
export function assertSessionId(sessionId: string): void {
  if (!SESSION_ID.test(sessionId) || sessionId.includes("..") || sessionId.endsWith(".lock")) {
    throw new InvalidSessionIdError(`"${sessionId}" is not a valid session id`);
  }
}

export type SnapshotKind = "before" | "after";

export function snapshotRef(sessionId: string, kind: SnapshotKind): string {
  return `refs/mini-cursor/${sessionId}/${kind}`;
}

/** Each session stages into its own index, so sessions (and the user's own index) never disturb each other. */
export function indexFile(gitDir: string, sessionId: string): string {
  return path.join(gitDir, `index-${sessionId}`);
}

function writeIfDifferent(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== content) fs.writeFileSync(file, content);
}

/**
 * Creates the shadow repository on first use (no template: no sample hooks), and rewrites the files that
 * decide what is tracked and how, in case something changed them. Call with the store's lock held.
 */
export async function prepareShadowRepo(git: GitRunner, gitDir: string): Promise<void> {
  if (!fs.existsSync(path.join(gitDir, "HEAD"))) await git.run(["init", "--quiet", "--template="]);
  fs.mkdirSync(path.join(gitDir, "info"), { recursive: true });
  writeIfDifferent(path.join(gitDir, "info", "exclude"), EXCLUDE_FILE);
  writeIfDifferent(path.join(gitDir, "info", "attributes"), PRIVATE_ATTRIBUTES);
  writeIfDifferent(path.join(gitDir, ".gitignore"), SELF_IGNORE);
}

const USES_FILE = "index-uses.json";

/**
 * The order in which the sessions' indexes were used, recorded as a counter per index (call with the store's lock
 * held). File times cannot tell: a seeded index keeps its original's mtime, and git does not rewrite an index whose
 * files did not change.
 */
function readUses(gitDir: string): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(gitDir, USES_FILE), "utf8"));
    if (typeof parsed !== "object" || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
  } catch {
    return {};
  }
}

function writeUses(gitDir: string, uses: Record<string, number>): void {
  const file = path.join(gitDir, USES_FILE);
  replaceFileSync(file, JSON.stringify(uses));
}

/** Marks an index as the most recently used one. */
export function recordIndexUse(gitDir: string, index: string): void {
  const uses = readUses(gitDir);
  uses[path.basename(index)] = Math.max(0, ...Object.values(uses)) + 1;
  writeUses(gitDir, uses);
}

/** The sessions' index files, most recently used first (unrecorded ones, from older versions, by file time, last). */
function indexFiles(gitDir: string): { file: string; stat: fs.Stats; use: number }[] {
  const uses = readUses(gitDir);
  const found: { file: string; stat: fs.Stats; use: number }[] = [];
  for (const name of fs.readdirSync(gitDir)) {
    if (!name.startsWith("index-") || name.endsWith(".lock") || name === USES_FILE || name.endsWith(".tmp")) continue;
    const file = path.join(gitDir, name);
    const stat = fs.statSync(file);
    if (stat.isFile()) found.push({ file, stat, use: uses[name] ?? 0 });
  }
  return found.sort((a, b) => b.use - a.use || b.stat.mtimeMs - a.stat.mtimeMs);
}

/**
 * An index is only a cache (file times and sizes, to skip re-reading unchanged files) and weighs about
 * 90 bytes per file, so only the most recently used few are kept. An older session that needs one again
 * starts from a copy of a recent one.
 */
export function pruneIndexes(gitDir: string, keep = 8): void {
  const files = indexFiles(gitDir);
  for (const { file } of files.slice(keep)) fs.rmSync(file, { force: true });
  const kept = new Set(files.slice(0, keep).map(({ file }) => path.basename(file)));
  const uses = readUses(gitDir);
  if (Object.keys(uses).some((name) => !kept.has(name))) writeUses(gitDir, Object.fromEntries(Object.entries(uses).filter(([name]) => kept.has(name))));
}

/**
 * A new session's index starts as a copy of the most recently used one: git then re-reads only files whose
 * size or time changed instead of hashing the whole workspace again. The copy keeps the original's mtime,
 * which git's "racily clean" check compares file times against. False when there was nothing to copy.
 */
export function seedIndex(gitDir: string, target: string): boolean {
  if (fs.existsSync(target)) return true;
  const best = indexFiles(gitDir)[0];
  if (!best) return false;
  fs.copyFileSync(best.file, target);
  fs.utimesSync(target, best.stat.atime, best.stat.mtime);
  return true;
}
