import { GitCommandError } from "./errors.js";
import { firstErrorLine, type GitRunner } from "./git-runner.js";

/** One snapshot: stage the workspace into a session's index, then commit the tree and point a ref at it. */
export interface SnapshotPlan {
  index: string;
  /** Extra `-c` settings for the `add` only. */
  addConfig: readonly string[];
  /** Commit only when the staged tree differs from this one ("" always commits). */
  unlessTree: string;
  /** The parent commit ("" for none). */
  parent: string;
  message: string;
  ref: string;
  /** update-ref's expected old value: "" makes git refuse when the ref exists already; null checks nothing. */
  oldValue: "" | null;
  /** Also list the folders git leaves untracked after staging (empty folders, which undo must keep). */
  listUntracked: boolean;
}

export interface SnapshotResult {
  tree: string;
  /** The new commit; null when the tree was unchanged. */
  commit: string | null;
  /** `add` could not read some files (it recorded the others): its first error line. */
  addProblem: string | null;
  /** With listUntracked: what `ls-files --others --directory` printed. */
  untracked: string[];
}

/**
 * Drops the gitlinks (repositories inside the workspace, recorded as their HEAD) from a session's index before each
 * `add --all`: for a gitlink already in the index, `add` runs `git status` inside that repository, with its own config,
 * whose filters a command may have written. Not in the index, it is added as new, which runs nothing there. (`g` as
 * in the script below; paths as `ls-files` quotes them, which `update-index --stdin` reads.)
 */
export const DROP_GITLINKS = "g ls-files --stage | grep '^160000 ' | cut -f2- | g update-index --force-remove --stdin";

/*
 * $1 unlessTree, $2 parent, $3 message, $4 ref, $5 "check-old" or "", $6 "list" or "", then the add's -c settings.
 * A failing step names itself on stderr's last line ("@failed STEP"), so the error says which git command failed.
 */
const SCRIPT = `unless=$1 parent=$2 message=$3 ref=$4 checkOld=$5 list=$6
shift 6
failed() { echo "@failed $1" >&2; exit 3; }
for setting do set -- "$@" -c "$setting"; shift; done
${DROP_GITLINKS} || failed update-index
g "$@" add --all --ignore-errors; added=$?
[ "$added" -le 1 ] || failed add
tree=$(g write-tree) || failed write-tree
commit=
if [ "$tree" != "$unless" ]; then
  if [ -n "$parent" ]; then commit=$(g commit-tree "$tree" -p "$parent" -m "$message") || failed commit-tree
  else commit=$(g commit-tree "$tree" -m "$message") || failed commit-tree; fi
  if [ -n "$checkOld" ]; then g update-ref "$ref" "$commit" "" || failed update-ref
  else g update-ref "$ref" "$commit" || failed update-ref; fi
fi
printf '%s\\n%s\\n%s\\n' "$added" "$tree" "$commit"
if [ -n "$list" ]; then g ls-files -z --others --directory --exclude-standard || failed ls-files; fi
`;

/** Runs a snapshot in one process instead of four or five git spawns (src/sessions/undo/git-runner.ts `script`). */
export async function takeSnapshot(git: GitRunner, plan: SnapshotPlan): Promise<SnapshotResult> {
  const params = [
    plan.unlessTree,
    plan.parent,
    plan.message,
    plan.ref,
    plan.oldValue === "" ? "check-old" : "",
    plan.listUntracked ? "list" : "",
    ...plan.addConfig,
  ];
  const out = await git.script(SCRIPT, params, { index: plan.index });
  const stderrLines = out.stderr.trimEnd().split("\n");
  const failed = /^@failed (\S+)$/.exec(stderrLines.at(-1) ?? "");
  if (out.code !== 0 || failed) {
    const rest = stderrLines.slice(0, failed ? -1 : undefined).join("\n");
    throw new GitCommandError(`git ${failed?.[1] ?? "snapshot"} failed (exit ${out.code}): ${firstErrorLine(rest)}`);
  }
  const text = out.stdout.toString("utf8");
  const [added = "", tree = "", commit = ""] = text.split("\n", 3);
  const header = `${added}\n${tree}\n${commit}\n`;
  const untracked = text
    .slice(header.length)
    .split("\0")
    .filter((p) => p.length > 0);
  return { tree, commit: commit === "" ? null : commit, addProblem: added === "0" ? null : firstErrorLine(out.stderr), untracked };
}
