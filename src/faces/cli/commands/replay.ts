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
import { readStoredOptions, type StoredOptions } from "../../../host/stored-options.js";
import { makePrompter } from "../safety-setup.js";
import { replayPrompter } from "../replay-prompter.js";
import { REPLAY_ENVIRONMENT } from "../replay-environment.js";

const REPLAY_OPTIONS = { ...COMMON_OPTIONS, into: { type: "string" }, until: { type: "string" } } as const;

interface Source {
  sessionId: string;
  task: string;
  options: string;
  calls: ReplayCall[];
  /** Follow-up instructions (`resume --message`) and the call each turn began with. */
  turns: RecordedTurn[];
  /** The settings recorded with the first call of each run (`run`, every `resume`), by their JSON. */
  settings: Map<string, StoredOptions>;
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
    // Each recorded run's settings, read now: a recording this version cannot read is bad input, before DIR is written.
    const settings = new Map<string, StoredOptions>();
    for (const call of calls) {
      const raw = call.request.settings;
      if (raw === undefined || settings.has(raw)) continue;
      try {
        settings.set(raw, readStoredOptions(raw));
      } catch {
        throw new UsageError(`the recording of session ${session.id} has settings this version cannot read (call ${call.seq})`);
      }
    }
    return {
      settings,
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

/** Where a recorded call was: its step, else the planner between steps (or an agent whose step is not known). */
export function describeCall(d: Pick<Divergence, "seq" | "role" | "step">): string {
  if (d.step) return `step ${d.step} (${d.role}, call ${d.seq})`;
  return d.role === "planner" ? `the planner (call ${d.seq}, between steps)` : `the ${d.role} (call ${d.seq}, in a step the recording does not name)`;
}

export function describeDivergence(d: Divergence): string {
  return `Divergence in ${describeCall(d)}: the ${d.tool} result${d.toolCallId ? ` for ${d.toolCallId}` : ""} differs from the recording:\n${d.diff}`;
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
  // The plan step the replay is in, for calls recorded without one (before steps were kept across a resume).
  let replayStep: string | null = null;
  const provider = new ReplayProvider(source.calls, {
    normalize: normalizer([workspace, fs.realpathSync(workspace), into, fs.realpathSync(into)]),
    environment: REPLAY_ENVIRONMENT,
    currentStep: () => replayStep,
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
      if (event.type === "step_started") replayStep = event.stepId;
      else if (event.type === "step_finished") replayStep = null;
      // A run paused where the recorded session was resumed with other settings ends quietly: the next run goes on.
      if (provider.paused && !provider.stopped && ((event.type === "notice" && event.level === "error") || event.type === "session_finished")) return;
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
      let status = "";
      /** One run of the replay, as the recorded session had one: with the settings recorded with its first call. */
      const runOnce = async (kind: { fresh: true } | { followUp: string } | { resumed: true }) => {
        const raw = provider.nextSettings;
        const settings = (raw !== undefined ? source.settings.get(raw) : undefined) ?? stored;
        provider.beginRun(raw);
        // The replay's own row follows, so `resume` of the replay (after --until) goes on with these settings.
        if (raw !== undefined) await database.sessions.update(sessionId, { options: JSON.stringify({ ...stored, ...settings }) });
        const continueStopped = "resumed" in kind && (status === "failed" || status === "limit_reached");
        status = "interrupted";
        return runSession({
          sessionId,
          workspace: into,
          task: source.task,
          limits: settings.limits,
          commandTimeoutMs: settings.commandTimeoutMs,
          fresh: "fresh" in kind,
          resumed: !("fresh" in kind),
          ...("followUp" in kind ? { followUp: kind.followUp } : {}),
          ...(continueStopped ? { continueStopped } : {}),
          onOutcome: (outcome) => (status = outcome.status),
          models: {
            settings: { apiKey: "", model: "replay", roleModels: {}, timeoutMs: 60_000, maxRetries: 0, source: `the recording of session ${source.sessionId}` },
            provider,
          },
          modelLabel: `replay of ${source.sessionId}`,
          database,
          printer: shown,
          clock,
          env: io.env,
          safety: settings.safety ?? stored.safety ?? safetyPolicySchema.parse({ approval: "auto" }),
          prompter: replayPrompter(provider, makePrompter(io, values.json ?? false), shown),
          prices,
          memory: { enabled: false, reason: "a replay runs without long-term memory" },
          budget: settings.budget,
          answerFrom: provider,
          cwd: io.cwd,
        });
      };
      const turnAt = new Map(source.turns.map((t) => [t.firstSeq, t.instruction]));
      code = await runOnce({ fresh: true });
      // The recorded session's later runs, each where it began: a follow-up turn (the same instruction), or a
      // `resume` (where the replay's run also ended, or paused because the recorded one resumed with other
      // settings). Anywhere else the replay diverged.
      for (;;) {
        if (provider.stopped || (code === EXIT.interrupted && !provider.paused) || provider.exhausted) break;
        const at = provider.answered;
        const instruction = turnAt.get(at + 1);
        if (instruction !== undefined && !provider.paused) code = await runOnce({ followUp: instruction });
        else if (instruction === undefined && provider.nextSettings !== undefined) {
          if (provider.paused)
            shown.emit({
              type: "notice",
              level: "info",
              message: `The recorded session was resumed here (call ${at + 1}) with other settings: so is the replay.`,
            });
          code = await runOnce({ resumed: true });
        } else break;
        // A run that made no model call would only repeat itself.
        if (provider.answered === at) break;
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
  const environment = provider.environmentDifferences.length;
  if (environment > 0)
    lines.push(
      `${environment} tool result${environment === 1 ? "" : "s"} differed only in what the environment adds (diagnostics and sandbox notes, memory), which is not a divergence.`,
    );
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
      environmentDifferences: provider.environmentDifferences,
      ...(stop ? { stopped: stop.reason, detail: stop.message } : {}),
      ...(stop?.reason === "until" ? { resume: c.resume } : {}),
    };
    c.io.stdout.write(`${JSON.stringify(summary)}\n`);
  } else c.io.stdout.write(`${lines.join("\n")}\n`);
  return diverged ? EXIT.failed : EXIT.done;
}
