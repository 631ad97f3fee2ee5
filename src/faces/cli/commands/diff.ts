import type { Clock } from "../../../platform/clock.js";
import { InvalidSessionIdError, UnknownSessionError } from "../../../sessions/undo/errors.js";
import { resolveSessionTarget, type SessionTarget } from "../../../sessions/undo/session-target.js";
import { ShadowStore } from "../../../sessions/undo/shadow-store.js";
import type { FileChange } from "../../../sessions/undo/types.js";
import { COMMON_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { sessionWorkspace } from "../session-workspace.js";
import { DIFF_HELP } from "../undo-help.js";
import { sessionPlace } from "./session-place.js";

export { DIFF_HELP };

/** A mistyped or unknown session is a usage problem: one line, exit 2. */
export async function targetOrUsage(
  workspace: string,
  wanted: string | undefined,
  store: ShadowStore,
  clock: Clock,
  env: NodeJS.ProcessEnv,
): Promise<SessionTarget> {
  try {
    return await resolveSessionTarget(workspace, wanted, store, clock, env);
  } catch (error) {
    if (error instanceof UnknownSessionError || error instanceof InvalidSessionIdError) throw new UsageError(error.message);
    throw error;
  }
}

export function changeLines(changes: readonly FileChange[]): string {
  return changes.map((c) => `  ${c.change.padEnd(9)} ${c.path}\n`).join("");
}

export async function diffCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS);
  if (values.help) {
    io.stdout.write(`${DIFF_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 1) throw new UsageError("diff takes at most one session id");
  const { workspace, worktreeSession } = sessionWorkspace(values.workspace, io.cwd);
  // A worktree session's undo store is in its worktree.
  const place = await sessionPlace(workspace, positionals[0] ?? worktreeSession, io.env, clock);
  const store = ShadowStore.open(place.files, { env: io.env, clock });
  const target = await targetOrUsage(workspace, place.wanted, store, clock, io.env);
  const changes = target.record ? await store.changes(target.id) : [];
  const diff = changes.length > 0 ? await store.diff(target.id) : "";
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ session: target.id, changes, diff })}\n`);
    return EXIT.done;
  }
  if (changes.length === 0) {
    io.stdout.write(`Session ${target.id} has no recorded changes.\n`);
    return EXIT.done;
  }
  const undone = target.record?.undoneAt ? ` (undone at ${target.record.undoneAt})` : "";
  const files = changes.length === 1 ? "1 file" : `${changes.length} files`;
  io.stdout.write(`Session ${target.id} changed ${files}${undone}:\n${changeLines(changes)}\n${diff}`);
  if (diff.length > 0 && !diff.endsWith("\n")) io.stdout.write("\n");
  return EXIT.done;
}
