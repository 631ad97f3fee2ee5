import type { Clock } from "../../../platform/clock.js";
import { ShadowStore } from "../../../sessions/undo/shadow-store.js";
import type { UndoReport } from "../../../sessions/undo/types.js";
import { COMMON_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { sessionWorkspace } from "../session-workspace.js";
import { UNDO_HELP } from "../undo-help.js";
import { targetOrUsage } from "./diff.js";
import { sessionPlace } from "./session-place.js";
import { commitWorktree, stepMessage } from "../../../sessions/worktree/commit.js";
import { worktreeTop } from "../../../sessions/worktree/repository.js";

export { UNDO_HELP };

function humanReport(report: UndoReport): string {
  // The counts are of files: `removed` also lists the folders the session created and left empty (ending in "/").
  const folders = report.removed.filter((p) => p.endsWith("/")).length;
  const files = report.removed.length - folders;
  const parts = [`${report.restored.length} restored`, `${files} removed`, `${report.skipped.length} skipped`];
  const emptied = folders === 0 ? "" : ` (and ${folders} empty ${folders === 1 ? "folder" : "folders"} removed)`;
  const lines = [`Undid session ${report.session}: ${parts.join(", ")}${emptied}.`];
  for (const p of report.restored) lines.push(`  restored  ${p}`);
  for (const p of report.removed) lines.push(`  removed   ${p}`);
  for (const s of report.skipped) lines.push(`  skipped   ${s.path}: ${s.reason}`);
  if (report.unchanged.length > 0) lines.push(`  (${report.unchanged.length} already as before the session)`);
  if (report.skipped.length > 0) lines.push("Skipped files changed after the session; undo left them as they are.");
  return `${lines.join("\n")}\n`;
}

export async function undoCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS);
  if (values.help) {
    io.stdout.write(`${UNDO_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 1) throw new UsageError("undo takes at most one session id");
  const { workspace, worktreeSession } = sessionWorkspace(values.workspace, io.cwd);
  // A worktree session is undone in its worktree, and the undo is a commit on its branch.
  const place = await sessionPlace(workspace, positionals[0] ?? worktreeSession, io.env, clock);
  const store = ShadowStore.open(place.files, { env: io.env, clock });
  const target = await targetOrUsage(workspace, place.wanted, store, clock, io.env);
  if (target.running) {
    io.stderr.write(`mini-cursor: session ${target.id} is still running; stop it before undoing its changes\n`);
    return EXIT.failed;
  }
  const changes = target.record ? await store.changes(target.id) : [];
  if (changes.length === 0 && !target.record?.undoneAt) {
    const nothing = { session: target.id, nothingToUndo: true, restored: [], removed: [], skipped: [], unchanged: [] };
    io.stdout.write(values.json ? `${JSON.stringify(nothing)}\n` : `Session ${target.id} has no recorded changes; nothing to undo.\n`);
    return EXIT.done;
  }
  const report = await store.undo(target.id);
  const committed = place.branch && !report.alreadyUndone ? await commitUndo(place.files, place.branch, target.id, io.env) : null;
  if (values.json) io.stdout.write(`${JSON.stringify({ ...report, ...(committed ? { worktreeCommit: committed } : {}) })}\n`);
  else if (report.alreadyUndone) io.stdout.write(`Session ${report.session} was already undone at ${report.undoneAt}; nothing to do.\n`);
  else io.stdout.write(humanReport(report) + (committed ? `Committed the undo on branch ${committed.branch} (${committed.commit.slice(0, 12)}).\n` : ""));
  return report.skipped.length > 0 && !report.alreadyUndone ? EXIT.failed : EXIT.done;
}

/**
 * The branch stays what its folder holds: the undo is one more commit on it (history kept, `git revert`-like), not a
 * reset, so commits merged or pushed from it meanwhile stay valid.
 */
async function commitUndo(files: string, branch: string, sessionId: string, env: NodeJS.ProcessEnv): Promise<{ branch: string; commit: string } | null> {
  const commit = await commitWorktree(
    await worktreeTop(files, env),
    stepMessage(`Undo mini-cursor session ${sessionId}`, `mini-cursor undo ${sessionId}: the files as they were before the session.`),
    env,
  );
  return commit ? { branch, commit } : null;
}
