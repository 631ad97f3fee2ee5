import type { GitRunner } from "./git-runner.js";
import type { ChangeKind } from "./types.js";

/** One path that differs between two trees, as `git diff-tree --raw` reports it. */
export interface PathDiff {
  path: string;
  /** "000000" when the path is absent on that side. */
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  kind: ChangeKind;
}

const ABSENT = "000000";
/** Nested repositories are recorded as links to a commit, not their files: undo leaves them alone. */
const GITLINK = "160000";

/** Parses `-z --raw` records: ":oldmode newmode oldsha newsha status" then the path, each NUL-terminated. */
export function parseRawDiff(records: string[]): PathDiff[] {
  const diffs: PathDiff[] = [];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const meta = records[i] ?? "";
    const path = records[i + 1] ?? "";
    const [oldMode = "", newMode = "", oldSha = "", newSha = ""] = meta.replace(/^:/, "").split(" ");
    if (oldMode === GITLINK || newMode === GITLINK) continue;
    const kind: ChangeKind = oldMode === ABSENT ? "created" : newMode === ABSENT ? "deleted" : "modified";
    diffs.push({ path, oldMode, newMode, oldSha, newSha, kind });
  }
  return diffs;
}

/** Every file that differs between two commits or trees (renames as delete + create). */
export async function diffTrees(git: GitRunner, from: string, to: string): Promise<PathDiff[]> {
  const records = await git.records(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-ext-diff", from, to]);
  return parseRawDiff(records).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every folder of a tree, for telling folders a session created from ones that were there. */
export async function treeFolders(git: GitRunner, tree: string): Promise<Set<string>> {
  return new Set(await git.records(["ls-tree", "-r", "-d", "-z", "--name-only", tree]));
}
