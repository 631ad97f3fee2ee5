import { formatUsd } from "../../../models/cost/format.js";
import type { Clock } from "../../../platform/clock.js";
import { ConfigError } from "../../../platform/config-file.js";
import { openSessionRecords } from "../../../sessions/open-records.js";
import type { SessionRecords } from "../../../sessions/session-records.js";
import type { SessionRow } from "../../../sessions/session-store.js";
// The leaf module, not the core barrel (which loads zod): listing rows stays a fast start.
import { shownTask } from "../../../core/text.js";
import { COMMON_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { SESSIONS_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { sessionWorkspace } from "../session-workspace.js";

/**
 * A "running" row whose process is gone was interrupted (crash, kill, a lost database connection): show it as
 * resumable. The lock is checked only when a row says running: most listings have none.
 */
async function withEffectiveStatus(rows: SessionRow[], records: SessionRecords): Promise<SessionRow[]> {
  const shown: SessionRow[] = [];
  for (const r of rows) shown.push(r.status === "running" && (await records.holder(r.id)) === null ? { ...r, status: "interrupted" } : r);
  return shown;
}

const SESSIONS_OPTIONS = { ...COMMON_OPTIONS, all: { type: "boolean" }, worktree: { type: "boolean" } } as const;

/** `sessions delete` and its short spelling `sessions rm`. */
const DELETE_WORDS = ["delete", "rm"];

export async function sessionsCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, SESSIONS_OPTIONS);
  if (values.help) {
    io.stdout.write(`${SESSIONS_HELP}\n`);
    return EXIT.done;
  }
  const { workspace } = sessionWorkspace(values.workspace, io.cwd);
  const [sub, id, extra] = positionals;
  if (sub !== undefined) {
    if (!DELETE_WORDS.includes(sub))
      throw new UsageError(`unknown sessions command "${sub}"; mini-cursor sessions lists them, mini-cursor sessions delete SESSION deletes one`);
    if (id === undefined) throw new UsageError(`sessions ${sub} needs the session to delete (see mini-cursor sessions)`);
    if (extra !== undefined) throw new UsageError(`sessions ${sub} takes one session id, got also "${extra}"`);
    // Loaded on demand: a listing does not pay for the undo store.
    const { deleteSession } = await import("./sessions-delete.js");
    return deleteSession(id, workspace, values.json === true, io, clock, values.worktree === true);
  }
  if (values.worktree) throw new UsageError("--worktree goes with sessions delete SESSION (it removes the session's worktree too)");
  const all = values.all === true;
  // Listing must not create a database in a folder that never had a session.
  const records = await openSessionRecords(workspace, io.env, clock, { create: false });
  let shown: SessionRow[] = [];
  let where = workspace;
  if (records) {
    try {
      if (records.kind === "postgres") where = all ? `the session database ${records.label}` : `${workspace} (session database ${records.label})`;
      shown = await withEffectiveStatus(await records.sessions.list({ all }), records);
    } catch (error) {
      // The database went away between connecting and listing: the same one line as when it is down at start.
      const lost = records.connectionProblem(error);
      throw lost === null ? error : new ConfigError(lost);
    } finally {
      await records.close();
    }
  }
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify(shown.map(({ options: _options, instruction, ...r }) => ({ ...r, latestInstruction: instruction, updatedAt: new Date(r.updatedAt).toISOString(), createdAt: new Date(r.createdAt).toISOString() })))}\n`,
    );
    return EXIT.done;
  }
  if (shown.length === 0) {
    io.stdout.write(`No sessions in ${where}. Start one with: mini-cursor run "<task>"\n`);
    return EXIT.done;
  }
  io.stdout.write(
    `${"ID".padEnd(22)} ${"STATUS".padEnd(13)} ${"UPDATED".padEnd(20)} ${"TOKENS".padStart(9)} ${"COST".padStart(9)} ${"TURNS".padStart(5)}  ${all ? "WORKSPACE  " : ""}TASK (→ LATEST INSTRUCTION)\n`,
  );
  for (const r of shown) {
    const updated = new Date(r.updatedAt).toISOString().replace("T", " ").slice(0, 19);
    const tokens = String(r.inputTokens + r.outputTokens);
    // "?": a model without a known price was used (or the session predates cost tracking).
    const cost = r.costUsd === null ? "?" : formatUsd(r.costUsd);
    // One line per session, however long the task (a task file may have many lines).
    // A session with follow-ups shows its latest instruction after its task.
    // A session opened in an editor and never prompted has no task yet.
    const task =
      r.status === "new" ? "(no task yet)" : r.instruction === null ? shownTask(r.task, 60) : `${shownTask(r.task, 40)} → ${shownTask(r.instruction, 60)}`;
    io.stdout.write(
      `${r.id.padEnd(22)} ${r.status.padEnd(13)} ${updated.padEnd(20)} ${tokens.padStart(9)} ${cost.padStart(9)} ${String(r.turns).padStart(5)}  ${all ? `${r.workspace}  ` : ""}${task}\n`,
    );
    // A `run --worktree` session: where its work is.
    if (r.worktree) io.stdout.write(`${"".padEnd(23)}worktree: branch ${r.branch ?? "?"} in ${r.worktree}\n`);
  }
  return EXIT.done;
}
