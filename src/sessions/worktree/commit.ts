import path from "node:path";
import { worktreeGitIdentity } from "../../platform/config/env.js";
import { isCredentialPath } from "../../safety/credential-files.js";
import { firstLine, git } from "./git.js";

/** mini-cursor's runtime folders, at any depth: never committed, even where a project's .gitignore lets them through. */
const RUNTIME = ":(top,exclude,glob)**/.mini-cursor/**";

/**
 * Files that hold secrets by convention though the catalogue leaves them to the project (`.env` is the project's own
 * file for the tools): a commit on a branch that may be pushed never takes them; they stay in the folder.
 */
const SECRET_NAMES = /^(\.env(\..+)?|\.netrc|\.npmrc|\.pypirc|.+\.(pem|key|p12|pfx))$/;
const SECRET_EXAMPLES = /^\.env\.(example|sample|template|dist)$/;

function secretFile(folder: string, file: string): boolean {
  const name = path.basename(file);
  return isCredentialPath(path.join(folder, file)) || (SECRET_NAMES.test(name) && !SECRET_EXAMPLES.test(name));
}

interface StagedEntry {
  path: string;
  oldMode: string;
  newMode: string;
}

/** `git diff --cached --raw -z`: `:<old mode> <new mode> <old> <new> <status>` and the path, NUL-separated. */
function stagedEntries(raw: string): StagedEntry[] {
  const parts = raw.split("\0");
  const entries: StagedEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode = "", newMode = ""] = (parts[i] ?? "").replace(/^:/, "").split(" ");
    const file = parts[i + 1] ?? "";
    if (file !== "") entries.push({ path: file, oldMode, newMode });
  }
  return entries;
}

/**
 * A git repository a command made inside the worktree, staged as a gitlink: in the index, every later `git status` of
 * the worktree (ours in `sessions delete --worktree`, `git worktree remove`'s, the person's) runs git inside it, with
 * its own config, whose filters are the command's programs. It stays in the folder, untracked; a gitlink the branch
 * already had (the project's submodule) is committed as before.
 */
function embeddedRepository(entry: StagedEntry): boolean {
  return entry.newMode === "160000" && entry.oldMode !== "160000";
}

/** The author is mini-cursor (configurable); the committer is the person's git identity, or mini-cursor's without one. */
async function identityEnv(folder: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const who = worktreeGitIdentity(env);
  const author = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email };
  const [name, email] = await Promise.all([git(folder, ["config", "user.name"], env), git(folder, ["config", "user.email"], env)]);
  if (name.code === 0 && email.code === 0 && name.stdout.trim() && email.stdout.trim()) return author;
  return { ...author, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
}

/**
 * Commits everything changed in the worktree at `folder` with `message`, except mini-cursor's runtime folders and
 * credential files (the catalogue of src/safety, and `.env`, `.npmrc`, `*.pem`, `*.key` ...) and repositories made inside it,
 * which stay uncommitted in the folder. Returns the new
 * commit, or null when there was nothing to commit. Throws one line when git fails.
 */
export async function commitWorktree(folder: string, message: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const check = async (args: string[]) => {
    const r = await git(folder, args, env);
    if (r.code !== 0) throw new Error(`git ${args[0]} failed in ${folder}: ${firstLine(r)}`);
    return r.stdout;
  };
  await check(["add", "--all", "--", ":/", RUNTIME]);
  const staged = stagedEntries(await check(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev"]));
  const leftOut = staged.filter((e) => secretFile(folder, e.path) || embeddedRepository(e)).map((e) => e.path);
  // Back to HEAD's entry (none for a new file): the file stays in the folder, out of the commit.
  if (leftOut.length > 0) await check(["reset", "--quiet", "--", ...leftOut.map((p) => `:(literal)${p}`)]);
  if (staged.length === leftOut.length) return null;
  const commit = await git(folder, ["commit", "--quiet", "--no-verify", "--cleanup=verbatim", "-m", message], env, await identityEnv(folder, env));
  if (commit.code !== 0) throw new Error(`git commit failed in ${folder}: ${firstLine(commit)}`);
  return (await check(["rev-parse", "HEAD"])).trim();
}

/** A commit message: the step's goal as the subject (one line, at most 72 characters; a longer goal whole below), then what made it. */
export function stepMessage(goal: string, detail: string): string {
  const line = goal.replace(/\s+/g, " ").trim() || "Changes";
  if (line.length <= 72) return `${line}\n\n${detail}\n`;
  return `${line.slice(0, 71)}…\n\n${goal.trim()}\n\n${detail}\n`;
}
