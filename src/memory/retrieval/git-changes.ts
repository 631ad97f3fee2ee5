import { runGit } from "../../platform/git.js";

/** What git said of the workspace when the index was last brought fully up to date. */
export interface GitSnapshot {
  head: string;
  /** Workspace-relative paths git reported as changed or untracked then (a later revert must be looked at again). */
  dirty: string[];
}

const TIMEOUT_MS = 10_000;

/**
 * Asks git (the workspace's own repository, with mini-cursor's safe settings: src/platform/git.ts) for HEAD and
 * the paths that differ from it (changed, staged, untracked; renames give both names), relative to the workspace,
 * which may be a folder inside the repository. Null when the workspace is not in a git repository or git fails.
 */
export async function gitSnapshot(root: string, env: NodeJS.ProcessEnv): Promise<GitSnapshot | null> {
  const where = await runGit(["rev-parse", "--show-prefix", "HEAD"], { scope: "repository", cwd: root, env, timeoutMs: TIMEOUT_MS });
  if (where.code !== 0) return null;
  const [prefix = "", head = ""] = where.stdout.toString("utf8").split("\n");
  if (!/^[0-9a-f]{40,64}$/.test(head)) return null;
  const status = await runGit(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", "."], {
    scope: "repository",
    cwd: root,
    env,
    timeoutMs: TIMEOUT_MS,
  });
  if (status.code !== 0) return null;
  // Each entry is "XY path"; paths are relative to the repository's top, so the workspace's prefix is taken off.
  const dirty = status.stdout
    .toString("utf8")
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3))
    .filter((p) => p.startsWith(prefix))
    .map((p) => p.slice(prefix.length));
  return { head, dirty };
}

/**
 * The workspace-relative paths that may differ between what the index saw at `since` and the work tree now:
 * what was dirty then, what is dirty now, and what the commits since then changed. Null when git cannot tell (not a
 * repository, HEAD unknown to it after a rewrite, git failing): the caller walks the whole tree.
 */
export async function changedSince(root: string, env: NodeJS.ProcessEnv, since: GitSnapshot, now: GitSnapshot): Promise<string[] | null> {
  const paths = new Set([...since.dirty, ...now.dirty]);
  if (since.head !== now.head) {
    const diff = await runGit(["diff", "--name-only", "-z", "--no-renames", "--relative", since.head, now.head, "--", "."], {
      scope: "repository",
      cwd: root,
      env,
      timeoutMs: TIMEOUT_MS,
    });
    if (diff.code !== 0) return null;
    for (const p of diff.stdout.toString("utf8").split("\0")) if (p) paths.add(p);
  }
  return [...paths].sort();
}
