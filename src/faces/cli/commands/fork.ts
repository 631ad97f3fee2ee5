import type { Clock } from "../../../platform/clock.js";
import { newSessionId } from "../../../sessions/session-id.js";
import { openSessionRecords } from "../../../sessions/open-records.js";
import type { HeldSessionLock } from "../../../sessions/session-records.js";
import { SessionBusyError } from "../../../sessions/session-lock.js";
import { ShadowStore } from "../../../sessions/undo/shadow-store.js";
import { COMMON_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { FORK_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { sessionWorkspace } from "../session-workspace.js";
import { resumeCommandFor } from "../../../host/resume-hint.js";
import { errorMessage } from "../../../platform/error-info.js";

/**
 * `mini-cursor fork SESSION`: copies a session into a new id (index row, checkpoint history, pending approval or
 * question, undo records), so a person can try another direction with `resume NEW --message` and keep the original.
 * A running session is refused: its last checkpoint and undo snapshot may be a step behind what it is doing.
 */
export async function forkCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS);
  if (values.help) {
    io.stdout.write(`${FORK_HELP}\n`);
    return EXIT.done;
  }
  const { workspace, worktreeSession } = sessionWorkspace(values.workspace, io.cwd);
  const [from = worktreeSession, extra] = positionals;
  if (from === undefined) throw new UsageError("fork needs the session to copy (see mini-cursor sessions)");
  if (extra !== undefined) throw new UsageError(`fork takes one session id, got also "${extra}"`);
  const index = await openSessionRecords(workspace, io.env, clock, { create: false });
  if (!index || !(await index.sessions.get(from))) {
    const where = index?.kind === "postgres" ? `the session database ${index.label}` : workspace;
    await index?.close();
    throw new UsageError(`no session "${from}" in ${where} (see mini-cursor sessions)`);
  }
  let lock: HeldSessionLock | null = null;
  try {
    const holder = await index.holder(from);
    if (holder !== null) {
      throw new SessionBusyError(`session ${from} is running in ${holder}; fork it once it has stopped (Ctrl-C stops it, its progress is kept)`);
    }
    // Held while copying: a `resume` of the original cannot start halfway through the copy.
    lock = await index.lockSession(from);
    const to = newSessionId(clock);
    const copied = await index.forkSession(from, to);
    let undo: boolean;
    const store = ShadowStore.open(workspace, { env: io.env, clock });
    try {
      undo = await store.fork(from, to);
    } catch (error) {
      // Nothing half-copied stays behind: the fork is whole or absent.
      await index.deleteSession(to);
      await store.forget(to).catch(() => undefined);
      throw new Error(`could not copy the undo records of ${from}: ${errorMessage(error)}`);
    }
    const resume = `${resumeCommandFor(to, workspace, io.cwd)} --message "..."`;
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ type: "session_forked", from, id: to, checkpoints: copied.checkpoints, undo, resume })}\n`);
    } else {
      const records = undo ? "its undo records" : "no undo records (it changed nothing yet)";
      io.stdout.write(`Forked session ${from} into ${to} (${copied.checkpoints} checkpoints, ${records}).\nContinue the copy with: ${resume}\n`);
    }
    return EXIT.done;
  } finally {
    await lock?.release();
    await index.close();
  }
}
