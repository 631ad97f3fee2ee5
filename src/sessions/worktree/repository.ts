import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../paths.js";
import { ensureDataDir } from "../data-dir.js";
import { firstLine, git } from "./git.js";

/** The git repository a `run --worktree` starts from, as found in the main checkout. */
export interface RepositoryView {
  /** The main checkout's top folder. */
  root: string;
  /** Where the workspace is inside it ("" at the top, else "sub/dir"). */
  prefix: string;
  /** The commit the worktree starts from. */
  head: string;
  /** The main checkout has uncommitted changes (or untracked files): they are not in the worktree. */
  dirty: boolean;
}

/** A session's git worktree: where it is, its branch and the workspace inside it. */
export interface SessionWorktree {
  folder: string;
  branch: string;
  /** The session's workspace: the worktree folder, or the same subfolder the main workspace is of its repository. */
  workspace: string;
  head: string;
}

/** Why `--worktree` cannot be used here: not a repository, no commit yet, no git. */
export class WorktreeUnavailableError extends Error {}

export function branchFor(sessionId: string): string {
  return `mini-cursor/${sessionId}`;
}

/** `<workspace>/.mini-cursor/worktrees/<session>`: under the main checkout's runtime folder, which git and the tools ignore. */
export function worktreeFolder(workspace: string, sessionId: string): string {
  return path.join(dataDir(workspace), "worktrees", sessionId);
}

/** Looks at the repository of `workspace`; throws WorktreeUnavailableError with one line when there is none to use. */
export async function inspectRepository(workspace: string, env: NodeJS.ProcessEnv): Promise<RepositoryView> {
  const top = await git(workspace, ["rev-parse", "--show-toplevel", "--show-prefix"], env);
  if (top.missing) throw new WorktreeUnavailableError("--worktree needs git, which was not found on PATH");
  if (top.code !== 0) throw new WorktreeUnavailableError(`--worktree needs a git repository, and ${workspace} is not in one`);
  const [root = workspace, shown = ""] = top.stdout.split("\n");
  const prefix = shown.replace(/\/$/, "");
  const head = await git(workspace, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], env);
  if (head.code !== 0)
    throw new WorktreeUnavailableError(`--worktree starts from the current commit, and the repository at ${root} has no commit yet; commit first`);
  const status = await git(root, ["status", "--porcelain", "-z", "--untracked-files=normal"], env);
  if (status.code !== 0) throw new WorktreeUnavailableError(`--worktree: git status failed in ${root}: ${firstLine(status)}`);
  return { root, prefix, head: head.stdout.trim(), dirty: status.stdout.length > 0 };
}

/**
 * `git worktree add -b mini-cursor/<session> <folder> <HEAD>`: a new branch from the commit the main checkout is on,
 * checked out in its own folder. The main checkout's data folder exists first, so its git exclude rule (which also
 * covers the worktree's own `.mini-cursor/`, info/exclude being shared by every worktree) is in place.
 */
export async function addWorktree(workspace: string, sessionId: string, repo: RepositoryView, env: NodeJS.ProcessEnv): Promise<SessionWorktree> {
  ensureDataDir(workspace);
  const folder = worktreeFolder(workspace, sessionId);
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  const branch = branchFor(sessionId);
  const added = await git(repo.root, ["worktree", "add", "--quiet", "-b", branch, "--", folder, repo.head], env);
  if (added.code !== 0) throw new WorktreeUnavailableError(`could not create the worktree ${folder}: ${firstLine(added)}`);
  const real = fs.realpathSync(folder);
  return { folder: real, branch, workspace: repo.prefix ? path.join(real, repo.prefix) : real, head: repo.head };
}

/** The worktree folder of a session's workspace inside it (its top, when the workspace is a subfolder). */
export async function worktreeTop(sessionWorkspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  const top = await git(sessionWorkspace, ["rev-parse", "--show-toplevel"], env);
  return top.code === 0 ? top.stdout.trim() : sessionWorkspace;
}

/** What removing a session's worktree did: the folder always (or an error before), the branch only when merged. */
export interface RemovedWorktree {
  folder: string;
  branch: string;
  /** The branch was deleted (`git branch -d`: merged into HEAD or its upstream); else kept, with why. */
  branchDeleted: boolean;
  branchKept?: string;
}

/**
 * The project's submodules whose folder in the worktree holds a repository (a `.git`). git status there runs in that
 * repository with its own config, and a sandboxed command could have made one, filters and all; so mini-cursor's own
 * git never looks inside them, and does not remove a worktree that has one. Reads the index only.
 */
export async function populatedSubmodules(folder: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const staged = await git(folder, ["ls-files", "--stage", "-z"], env);
  if (staged.code !== 0) return [];
  return staged.stdout
    .split("\0")
    .filter((entry) => entry.startsWith("160000 "))
    .map((entry) => entry.slice(entry.indexOf("\t") + 1))
    .filter((sub) => fs.existsSync(path.join(folder, sub, ".git")));
}

export function populatedRefusal(folder: string, populated: readonly string[]): string {
  return `the worktree ${folder} has a repository in its submodule folder ${populated.join(", ")}, whose own git config would run on removal; check it, then remove the worktree by hand (git worktree remove --force)`;
}

/** Uncommitted changes in the worktree (its runtime folder aside), as git status lists them; "" when clean. */
export async function worktreeChanges(folder: string, env: NodeJS.ProcessEnv): Promise<string> {
  // Not inside submodules: see populatedSubmodules.
  const status = await git(folder, ["status", "--porcelain", "--untracked-files=normal", "--ignore-submodules=all"], env);
  if (status.code !== 0) throw new WorktreeUnavailableError(`git status failed in ${folder}: ${firstLine(status)}`);
  return status.stdout.trim();
}

/**
 * `git worktree remove` (never forced: git refuses a worktree with uncommitted changes), then `git branch -d`, which
 * deletes the branch only when its work is merged; an unmerged branch is kept, so no work is lost.
 */
export async function removeWorktree(folder: string, branch: string, env: NodeJS.ProcessEnv): Promise<RemovedWorktree> {
  const common = await git(folder, ["rev-parse", "--path-format=absolute", "--git-common-dir"], env);
  if (common.code !== 0) throw new WorktreeUnavailableError(`${folder} is not a git worktree: ${firstLine(common)}`);
  const repo = path.dirname(common.stdout.trim());
  // git worktree remove checks the submodules' own status, which runs their config: not with a repository in one.
  const populated = await populatedSubmodules(folder, env);
  if (populated.length > 0) throw new WorktreeUnavailableError(populatedRefusal(folder, populated));
  const removed = await git(repo, ["worktree", "remove", "--", folder], env);
  if (removed.code !== 0) throw new WorktreeUnavailableError(`could not remove the worktree ${folder}: ${firstLine(removed)}`);
  const deleted = await git(repo, ["branch", "-d", "--", branch], env);
  return deleted.code === 0 ? { folder, branch, branchDeleted: true } : { folder, branch, branchDeleted: false, branchKept: firstLine(deleted) };
}

/**
 * Removes a worktree and its branch that no session got to use (the run failed before its session existed): forced,
 * since only mini-cursor's own runtime data can be in it. Best effort: a failure leaves them for `git worktree prune`.
 */
export async function discardWorktree(worktree: SessionWorktree, env: NodeJS.ProcessEnv): Promise<void> {
  const common = await git(worktree.folder, ["rev-parse", "--path-format=absolute", "--git-common-dir"], env);
  if (common.code !== 0) return;
  const repo = path.dirname(common.stdout.trim());
  const removed = await git(repo, ["worktree", "remove", "--force", "--", worktree.folder], env);
  if (removed.code === 0) await git(repo, ["branch", "-D", "--", worktree.branch], env);
}
