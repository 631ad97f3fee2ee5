import { runGit } from "../../platform/git.js";

/** What git said of the workspace when the index was last brought fully up to date. */
export interface GitSnapshot {
  head: string;
  /** Workspace-relative paths git reported as changed or untracked then (a later revert must be looked at again). */
  dirty: string[];
}

const TIMEOUT_MS = 10_000;

/** Where the workspace sits in its repository ("" at the top, "app/" in a folder), asked once per workspace. */
const prefixes = new Map<string, Promise<string | null>>();
function prefixOf(root: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  let known = prefixes.get(root);
  if (!known) {
    known = runGit(["rev-parse", "--show-prefix"], { scope: "repository", cwd: root, env, timeoutMs: TIMEOUT_MS }).then((r) =>
      r.code === 0 ? r.stdout.toString("utf8").trim() : null,
    );
    // A folder that is not (yet) a repository may become one: only an answer is kept.
    void known.then((p) => p === null && prefixes.delete(root));
    prefixes.set(root, known);
  }
  return known;
}

/** The path of one `git status --porcelain=v2 -z` entry (ordinary, unmerged, untracked); null for the others. */
function entryPath(entry: string): string | null {
  if (entry.startsWith("1 ")) return entry.split(" ").slice(8).join(" ");
  if (entry.startsWith("u ")) return entry.split(" ").slice(10).join(" ");
  if (entry.startsWith("? ")) return entry.slice(2);
  return null;
}

/**
 * Asks git (the workspace's own repository, with mini-cursor's safe settings: src/platform/git.ts) for HEAD and
 * the paths that differ from it (changed, staged, untracked; renames give both names), relative to the workspace,
 * which may be a folder inside the repository: one `git status` (HEAD is in its header). Null when the workspace
 * is not in a git repository, HEAD has no commit yet, or git fails.
 */
export async function gitSnapshot(root: string, env: NodeJS.ProcessEnv): Promise<GitSnapshot | null> {
  // Both at once (a first update in a fresh process waits for each): outside a repository, both fail.
  const [prefix, status] = await Promise.all([
    prefixOf(root, env),
    // --no-ahead-behind: counting the commits between HEAD and its upstream costs on a long history, and says nothing here.
    runGit(["status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=all", "--no-renames", "--", "."], {
      scope: "repository",
      cwd: root,
      env,
      timeoutMs: TIMEOUT_MS,
    }),
  ]);
  if (prefix === null || status.code !== 0) return null;
  let head = "";
  const dirty: string[] = [];
  for (const entry of status.stdout.toString("utf8").split("\0")) {
    if (entry.startsWith("# branch.oid ")) head = entry.slice("# branch.oid ".length);
    const p = entryPath(entry);
    // Paths are relative to the repository's top: the workspace's prefix is taken off.
    if (p !== null && p.startsWith(prefix)) dirty.push(p.slice(prefix.length));
  }
  return /^[0-9a-f]{40,64}$/.test(head) ? { head, dirty } : null;
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

/** No git to ask: walk. */
export const NO_GIT: { candidates: null; snapshot: null } = { candidates: null, snapshot: null };

/**
 * The files that may have changed since the last complete update, whose snapshot the index kept (`kept`, JSON), and
 * the snapshot to keep once this update is complete (`snapshot`, gitSnapshot's answer now): a git process at most,
 * whatever the repository's size. No candidates (not a repository, no snapshot yet, a history git no longer knows, a
 * .gitignore changed): walk.
 */
export async function gitCandidates(
  root: string,
  env: NodeJS.ProcessEnv,
  kept: string | undefined,
  snapshot: GitSnapshot | null,
): Promise<{ candidates: string[] | null; snapshot: GitSnapshot | null }> {
  const since = kept ? (JSON.parse(kept) as GitSnapshot) : null;
  if (!snapshot || !since) return { candidates: null, snapshot };
  const candidates = await changedSince(root, env, since, snapshot);
  // New ignore rules change what is indexed anywhere below them.
  const rules = candidates?.some((p) => p === ".gitignore" || p.endsWith("/.gitignore"));
  return { candidates: rules ? null : candidates, snapshot };
}
