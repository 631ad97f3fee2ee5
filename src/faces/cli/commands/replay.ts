import fs from "node:fs";
import path from "node:path";
import { safetyPolicySchema, type EventSink } from "../../../core/index.js";
import { loadConfigFiles, resolvePriceConfig } from "../../../platform/config/index.js";
import { priceTableFor } from "../../../models/cost/price-config.js";
import { decode, RECORDING_FORMAT, type RecordedRequest, type RecordedResponse } from "../../../models/recording-codec.js";
import { normalizer } from "../../../models/replay-compare.js";
import { ReplayProvider, type Divergence, type ReplayCall } from "../../../models/replay-model.js";
import type { Clock } from "../../../platform/clock.js";
import { SHARED_DATA_FOLDERS } from "../../../sessions/data-dir.js";
import { dataDir } from "../../../sessions/paths.js";
import type { RecordedTurn } from "../../../sessions/recordings.js";
import { openSessionRecords } from "../../../sessions/open-records.js";
import { newSessionId } from "../../../sessions/session-id.js";
import { WorkspaceLock } from "../../../sessions/workspace-lock.js";
import { exportBaseline } from "../../../sessions/undo/export-baseline.js";
import { UndoError } from "../../../sessions/undo/errors.js";
import { COMMON_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { REPLAY_HELP } from "../replay-help.js";
import { makePrinter, type CliIo } from "../io.js";
import { sessionWorkspace } from "../session-workspace.js";
import { resumeCommandFor } from "../../../host/resume-hint.js";
import { readStoredOptions } from "../../../host/stored-options.js";
import { makePrompter } from "../safety-setup.js";
import { replayPrompter } from "../replay-prompter.js";

const REPLAY_OPTIONS = { ...COMMON_OPTIONS, into: { type: "string" }, until: { type: "string" } } as const;

interface Source {
  sessionId: string;
  task: string;
  options: string;
  calls: ReplayCall[];
  /** Follow-up instructions (`resume --message`) and the call each turn began with. */
  turns: RecordedTurn[];
  truncated: boolean;
}

/** The session and its recording, read from the workspace's database (without LangGraph); bad input is exit 2. */
async function readSource(workspace: string, wanted: string | undefined, env: NodeJS.ProcessEnv, clock: Clock): Promise<Source> {
  const index = await openSessionRecords(workspace, env, clock, { create: false });
  const where = index?.kind === "postgres" ? `the session database ${index.label}` : workspace;
  const missing = () => new UsageError(wanted ? `no session "${wanted}" in ${where} (see mini-cursor sessions)` : `no sessions in ${workspace} yet`);
  if (!index) throw missing();
  try {
    const session = wanted ? await index.sessions.get(wanted) : await index.sessions.latest();
    if (!session) throw missing();
    const store = index.recordings;
    const rows = await store.calls(session.id);
    if (rows.length === 0)
      throw new UsageError(`session ${session.id} has no recorded model calls (sessions from before recording was added cannot be replayed)`);
    const unknown = rows.find((r) => r.format !== RECORDING_FORMAT);
    if (unknown) throw new UsageError(`session ${session.id} was recorded in format ${unknown.format}, which this version cannot replay`);
    const calls = rows.map((r) => ({
      seq: r.seq,
      role: r.role,
      step: r.step,
      model: r.model,
      request: decode<RecordedRequest>(r.request),
      response: decode<RecordedResponse>(r.response),
    }));
    const turns = await store.turns(session.id);
    return {
      sessionId: session.id,
      task: session.task,
      options: session.options,
      calls,
      turns,
      truncated: (await store.summary(session.id))?.truncated ?? false,
    };
  } finally {
    await index.close();
  }
}

/** DIR must be new or empty: a replay never overwrites files. Returns whether this command created it. */
function prepareTarget(into: string): boolean {
  const stat = fs.statSync(into, { throwIfNoEntry: false });
  if (!stat) {
    fs.mkdirSync(into, { recursive: true });
    return true;
  }
  if (!stat.isDirectory()) throw new UsageError(`${into} is not a folder`);
  if (fs.readdirSync(into).length > 0) throw new UsageError(`${into} is not empty: replay into a new or empty folder`);
  return false;
}

function describeDivergence(d: Divergence): string {
  const where = d.step ? `step ${d.step} (${d.role}` : `the ${d.role} (`;
  return `Divergence in ${where}, call ${d.seq}): the ${d.tool} result${d.toolCallId ? ` for ${d.toolCallId}` : ""} differs from the recording:\n${d.diff}`;
}

/**
 * `mini-cursor replay SESSION --into DIR`: the workspace as the session found it (its undo baseline) in DIR, then the
 * same graph run there with a model that answers from the session's recording. A new session in DIR's own
 * .mini-cursor/ holds the replay, so it can be resumed, diffed or undone like any other.
 */
export async function replayCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, REPLAY_OPTIONS, "replay");
  if (values.help) {
    io.stdout.write(`${REPLAY_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 1) throw new UsageError("replay takes one session id");
  if (!values.into) throw new UsageError("replay needs --into DIR: a new or empty folder for the replayed workspace");
  const { workspace, worktreeSession } = sessionWorkspace(values.workspace, io.cwd);
  const into = path.resolve(io.cwd, values.into);
  const source = await readSource(workspace, positionals[0] ?? worktreeSession, io.env, clock);
  const until = values.until;
  if (until !== undefined && !source.calls.some((c) => c.step === until && c.role !== "planner")) {
    const steps = [...new Set(source.calls.flatMap((c) => (c.step && c.role !== "planner" ? [c.step] : [])))];
    throw new UsageError(`the recording of session ${source.sessionId} has no step "${until}"${steps.length ? ` (its steps: ${steps.join(", ")})` : ""}`);
  }
  if (path.relative(workspace, into) === "") throw new UsageError("--into must be another folder than the workspace");
  // Everything that can fail on bad input is read before DIR is written.
  const stored = readStoredOptions(source.options);
  // The prices configured for the session's workspace (its endpoint, which makes local models free, is not known here).
  const prices = priceTableFor(resolvePriceConfig(io.env, loadConfigFiles(io.env, workspace)));
  const created = prepareTarget(into);
  try {
    await exportBaseline(workspace, source.sessionId, into, { env: io.env });
  } catch (error) {
    if (created) fs.rmSync(into, { recursive: true, force: true });
    if (error instanceof UndoError) throw new UsageError(`cannot recreate the workspace of session ${source.sessionId}: ${error.message}`);
    throw error;
  }
  // Agent and skill files are the project's (meant to be committed) but live in .mini-cursor/, which the baseline skips.
  for (const folder of SHARED_DATA_FOLDERS) {
    const from = path.join(dataDir(workspace), folder);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dataDir(into), folder), { recursive: true });
  }
  const printer = makePrinter(values.json ?? false, io, clock);
  const provider = new ReplayProvider(source.calls, {
    normalize: normalizer([workspace, fs.realpathSync(workspace), into, fs.realpathSync(into)]),
    ...(until !== undefined ? { until } : {}),
  });
  const sessionId = newSessionId(clock);
  const resume = resumeCommandFor(sessionId, into, io.cwd);
  printer.emit({
    type: "notice",
    level: "info",
    message: `Replaying session ${source.sessionId} (${source.calls.length} recorded model calls) in ${into}: no model endpoint is used.`,
  });
  if (source.truncated)
    printer.emit({
      type: "notice",
      level: "warn",
      message: `The recording of session ${source.sessionId} stopped at its size cap: the replay diverges where it ends.`,
    });
  // --until ends the run from inside a model call: say it as the stop it is, not as an error.
  const shown: EventSink = {
    emit(event) {
      const atUntil = provider.stopped?.reason === "until";
      if (atUntil && event.type === "notice" && event.level === "error") return;
      if (atUntil && event.type === "session_finished") {
        printer.emit({ ...event, report: `Replay stopped before step ${until ?? ""} as asked. Continue it with a real model: ${resume}` });
        return;
      }
      printer.emit(event);
    },
  };
  const workspaceLock = WorkspaceLock.acquire(into, { force: false, flag: "--force" });
  let code: number;
  try {
    const [{ openRunStore }, { runSession }] = await Promise.all([import("../../../sessions/open-run-store.js"), import("../../../host/session-runner.js")]);
    const database = await openRunStore(into, io.env, clock, { create: true });
    if (!database) throw new Error("no session store");
    try {
      await database.sessions.create({ id: sessionId, task: source.task, workspace: into, model: `replay of ${source.sessionId}`, options: source.options });
      const turn = (followUp: string | undefined) =>
        runSession({
          sessionId,
          workspace: into,
          task: source.task,
          limits: stored.limits,
          commandTimeoutMs: stored.commandTimeoutMs,
          fresh: followUp === undefined,
          resumed: followUp !== undefined,
          ...(followUp !== undefined ? { followUp } : {}),
          models: {
            settings: { apiKey: "", model: "replay", roleModels: {}, timeoutMs: 60_000, maxRetries: 0, source: `the recording of session ${source.sessionId}` },
            provider,
          },
          modelLabel: `replay of ${source.sessionId}`,
          database,
          printer: shown,
          clock,
          env: io.env,
          safety: stored.safety ?? safetyPolicySchema.parse({ approval: "auto" }),
          prompter: replayPrompter(provider, makePrompter(io, values.json ?? false), shown),
          prices,
          memory: { enabled: false, reason: "a replay runs without long-term memory" },
          budget: stored.budget,
          answerFrom: provider,
          cwd: io.cwd,
        });
      code = await turn(undefined);
      // Each follow-up turn is given when the replay is where the recording's turn began; anywhere else it diverged.
      for (const next of source.turns) {
        if (provider.stopped || code === EXIT.interrupted || provider.answered !== next.firstSeq - 1) break;
        code = await turn(next.instruction);
      }
    } finally {
      await database.close();
    }
  } finally {
    workspaceLock.release();
  }
  return report(provider, source, { printer, json: values.json ?? false, io, clock, sessionId, into, resume, runCode: code });
}

interface ReportContext {
  printer: EventSink;
  json: boolean;
  io: CliIo;
  clock: Clock;
  sessionId: string;
  into: string;
  resume: string;
  runCode: number;
}

/** Says where the replay differed from the recording; exit 0 when it matched, 1 when it diverged. */
function report(provider: ReplayProvider, source: Source, c: ReportContext): number {
  for (const d of provider.divergences) c.printer.emit({ type: "notice", level: "warn", message: describeDivergence(d) });
  const stop = provider.stopped;
  const unused = stop ? 0 : source.calls.length - provider.answered;
  if (c.runCode === EXIT.interrupted && !stop) return EXIT.interrupted;
  const diverged = provider.divergences.length > 0 || stop?.reason === "diverged" || unused > 0;
  const lines: string[] = [];
  if (stop?.reason === "diverged") lines.push(`The replay took another path and stopped: ${stop.message.replace(/^replay diverged: /, "")}.`);
  if (unused > 0) lines.push(`The replay finished after ${provider.answered} of the ${source.calls.length} recorded model calls.`);
  if (!diverged) lines.push(`The replay matched the recording (${provider.answered} model calls).`);
  else if (provider.divergences.length > 0)
    lines.push(`${provider.divergences.length} tool result${provider.divergences.length === 1 ? "" : "s"} differed from the recording.`);
  lines.push(`Replayed workspace: ${c.into} (session ${c.sessionId}).`);
  if (stop?.reason === "until") lines.push(`Continue it with a real model: ${c.resume}`);
  if (c.json) {
    const summary = {
      ts: new Date(c.clock.now()).toISOString(),
      type: "replay_finished",
      replayOf: source.sessionId,
      sessionId: c.sessionId,
      into: c.into,
      matched: !diverged,
      recordedCalls: source.calls.length,
      replayedCalls: provider.answered,
      divergences: provider.divergences,
      ...(stop ? { stopped: stop.reason, detail: stop.message } : {}),
      ...(stop?.reason === "until" ? { resume: c.resume } : {}),
    };
    c.io.stdout.write(`${JSON.stringify(summary)}\n`);
  } else c.io.stdout.write(`${lines.join("\n")}\n`);
  return diverged ? EXIT.failed : EXIT.done;
}
