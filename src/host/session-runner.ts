import { projectContext } from "../agents/brief.js";
import { compileGraph } from "../graph/build-graph.js";
import { wireGraphDeps } from "./graph-deps.js";
import {
  describeStop,
  type EventSink,
  isBudgetStop,
  isQuestionRequest,
  type Limits,
  modeAsks,
  type ProgressEvent,
  type SafetyPolicy,
  type StopReason,
} from "../core/index.js";
import type { ApprovalPrompter } from "./prompter.js";
import { loadConfigFiles, type McpServerSettings, type MemorySettings, resolveDiagnosticsConfig, resolveWebConfig } from "../platform/config/index.js";
import type { Budget } from "../models/cost/budget.js";
import { budgetHint } from "../graph/budget-resume.js";
import { planContinuation } from "../graph/continue-session.js";
import type { PriceTable } from "../models/cost/prices.js";
import { summarizeUsage } from "../models/cost/usage.js";
import { renderFinalReport } from "../graph/report.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import type { Clock } from "../platform/clock.js";
import { createDiagnosticsHub } from "../tools/diagnostics/index.js";
import { keepFromCommands } from "../tools/command-env.js";
import { createSkillLibrary } from "../tools/skills/catalogue.js";
import { errorLine } from "../models/model-errors.js";
import type { RunStore } from "../sessions/run-store.js";
import type { HeldSessionLock } from "../sessions/session-records.js";
import { EXIT, exitCodeForStatus } from "./session-exit.js";
import { damagedDatabaseLine } from "../sessions/data-errors.js";
import type { ModelProvider } from "../models/chat-model.js";
import { recordSession } from "./session-recording.js";
import type { ModelSetup } from "./model-setup.js";
import { resumeCommandFor } from "./resume-hint.js";
import { loadSessionAgents } from "./custom-agents.js";
import { pendingRequest } from "./pending-request.js";
import { RunInterrupts } from "./run-interrupts.js";
import { sessionNotices } from "./session-notices.js";
import { processesLine, takeEarlierProcesses } from "./background-record.js";
import { type SessionServices, startSessionServices } from "./session-services.js";
import { followUpInput } from "./follow-up-turn.js";
import { afterFirstRequest } from "./first-request.js";
import { turnUsage } from "../graph/follow-up.js";
import { type WorktreeRun, WorktreeSession } from "./worktree-session.js";

/** Memory and the index start after this when no model request goes out first (a resumed session that asks a person first). */
const FIRST_REQUEST_FALLBACK_MS = 500;

export interface SessionRunOptions {
  sessionId: string;
  workspace: string;
  task: string;
  limits: Limits;
  commandTimeoutMs: number;
  /** Start from this input (new session, or one killed before its first checkpoint); else continue. */
  fresh: boolean;
  resumed: boolean;
  models: ModelSetup;
  modelLabel: string;
  database: RunStore;
  printer: EventSink;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  safety: SafetyPolicy;
  prompter: ApprovalPrompter;
  prices: PriceTable;
  /** Long-term memory settings from the one resolver (src/platform/config). */
  memory: MemorySettings;
  budget: Budget;
  /** The session ended failed or limit_reached and continues from its last checkpoint (src/graph/continue-session.ts). */
  continueStopped?: boolean;
  /** A follow-up instruction (`resume --message`): the session goes on with a new turn (src/host/follow-up-turn.ts). */
  followUp?: string;
  /** Where the person runs the CLI: the resume hints printed must work from there (the process's by default). */
  cwd?: string;
  /** Undo, memory and sandbox, when the command started them early (src/host/session-services.ts); else started here. */
  services?: SessionServices;
  /** Answers every model call instead of the session's models (`mini-cursor replay`: from a recording). */
  answerFrom?: ModelProvider;
  /** Stops the run like Ctrl-C does (an editor's `session/cancel`): at the next safe point, commands killed. */
  cancel?: AbortSignal;
  /** MCP servers the face adds to the configured ones (an editor's, over ACP). */
  mcpServers?: readonly McpServerSettings[];
  /**
   * The session's lock, when the command took it before changing the session's settings (so that of two processes
   * resuming at once, the one refused changed nothing); it stays the caller's to release. Else taken here.
   */
  lock?: HeldSessionLock;
  /** A `run --worktree` session: `workspace` is inside this git worktree; each changing step is committed on its branch. */
  worktree?: WorktreeRun;
  /** Told how the run ended: the session's status and, when it stopped early, why. */
  onOutcome?: (outcome: { status: string; stop: StopReason | null }) => void;
}

/**
 * Runs (or continues) one session under its lock. Ctrl-C or SIGTERM aborts the graph between writes, kills
 * running commands and leaves the last checkpoint for `resume`; at an approval prompt they end the session at
 * once, the approval left pending. The lock is released whatever happens. A session database that goes away
 * (PostgreSQL) stops the run the same way, resumable from its last checkpoint, with exit 1.
 */
export async function runSession(o: SessionRunOptions): Promise<number> {
  const lock = o.lock ?? (await o.database.lockSession(o.sessionId));
  // A worktree session is found from its main checkout (its database is there).
  const resumeCommand = resumeCommandFor(o.sessionId, o.worktree?.home ?? o.workspace, o.cwd ?? process.cwd());
  const run = new RunInterrupts({ printer: o.printer, resumeCommand, lock, databaseLabel: o.database.label, ...(o.cancel ? { cancel: o.cancel } : {}) });
  const { sessions } = o.database;
  // Undo (the workspace as it was before this session first changed it; a resumed session keeps its first), memory
  // and the sandbox probe run in child processes alongside the first planner call; each is awaited where it is used.
  const services =
    o.services ??
    startSessionServices({
      workspace: o.workspace,
      sessionId: o.sessionId,
      env: o.env,
      clock: o.clock,
      memory: o.memory,
      events: o.printer,
      ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    });
  services.handOver();
  const { undo, memory, processes } = services;
  // Background processes an earlier run of this session left running died with it (the report says so).
  const gone = processesLine("gone", takeEarlierProcesses(o.workspace, o.sessionId));
  let finished = false;
  const worktree = o.worktree ? new WorktreeSession(o.worktree, o.sessionId, o.env, o.printer) : null;
  /** Background processes never outlive the session: stopped before the report, which names them. */
  const finish = async (event: Extract<ProgressEvent, { type: "session_finished" }>) => {
    finished = true;
    const stopped = processesLine("stopped", await processes.stopAll());
    const reported = { ...event, report: [event.report, gone, stopped].filter(Boolean).join("\n") };
    o.printer.emit(worktree ? await worktree.finished(reported) : reported);
  };
  // Agent files become nodes of the graph, so they are read before it is built.
  const custom = await loadSessionAgents(o.workspace, o.env, o.models);
  // Skills are found now (folder listings and frontmatter only); a bad one is a notice and the others load.
  const skills = createSkillLibrary(o.env, (message) => o.printer.emit({ type: "notice", level: "warn", message }));
  // fetch_url and web_search: `web` of mini-cursor.json and the user config (validated when the session's config was).
  const configFiles = loadConfigFiles(o.env, o.workspace);
  const web = resolveWebConfig(configFiles, o.env);
  // The search key may come in under any name (web.search.apiKeyEnv): commands never get it.
  keepFromCommands(web.search?.apiKey);
  const sandboxStatus = await services.sandbox;
  // Problems after edits: the project's checkers run in the sandbox only (they are the project's code); the language
  // service starts with the first edit and stops with the session (finally, below).
  const diagnostics = createDiagnosticsHub({
    settings: resolveDiagnosticsConfig(configFiles, o.env),
    sandbox: sandboxStatus.kind === "bubblewrap" ? { kind: "bubblewrap", allowNetwork: false } : { kind: "none" },
    parentEnv: o.env,
  });
  // Every model call is recorded in the session database, for `mini-cursor replay`.
  const recording = await recordSession(o.database.recordings, o.sessionId, o.printer, o.fresh ? undefined : o.followUp);
  const graph = compileGraph(
    wireGraphDeps({
      models: recording.models(o.answerFrom ?? custom.models),
      modelSettings: o.models.settings,
      prices: o.prices,
      events: recording.events,
      memory,
      sandbox: sandboxStatus,
      commandTimeoutMs: o.commandTimeoutMs,
      extensions: services.mcp,
      skills,
      web,
      diagnostics,
      processes,
      ...(services.codeIndex ? { codeIndex: services.codeIndex } : {}),
      // No tool runs before the baseline and the previous step's snapshot exist; that snapshot (git processes) is
      // taken while the planner's turn goes on, not before it.
      beforeStep: async () => {
        await undo.before();
        await undo.settled();
        await worktree?.committer.settled();
      },
      afterStep: async (step) => {
        void undo.after();
        // The next step's tools wait for this commit (beforeStep), so it holds exactly this step's changes.
        if (worktree) void worktree.committer.after(step);
        // Files may have changed: re-embed those whose content did, in the background.
        services.codeIndex?.refresh();
      },
    }),
    o.database.checkpointer,
    custom.agents,
  );
  const config = {
    // The budget, safety policy, limits and folder travel with the run (a resume may change them, or move the
    // session to another checkout): src/models/cost/budget.ts budgetOf, src/core safetyOf, limitsOf and workspaceOf; the
    // graph prefers them over its state, even mid-step.
    configurable: { thread_id: o.sessionId, budget: o.budget, safety: o.safety, limits: o.limits, runWorkspace: o.workspace },
    // Two supersteps per sub-agent run (agent, planner) plus the first plan and finish.
    recursionLimit: o.limits.maxAgentRuns * 2 + 10,
    signal: run.controller.signal,
  };
  await sessions.update(o.sessionId, { status: "running", model: o.modelLabel });
  // The whole task: --json consumers get it as given; the views shorten it themselves (src/faces/cli/printers, live-view).
  o.printer.emit({
    type: "session_started",
    sessionId: o.sessionId,
    task: o.task,
    workspace: o.workspace,
    resumed: o.resumed,
    model: o.modelLabel,
    ...(worktree ? { worktree: worktree.view() } : {}),
  });
  for (const message of worktree?.startNotices() ?? []) o.printer.emit({ type: "notice", level: "info", message });
  if (gone) o.printer.emit({ type: "notice", level: "info", message: gone });
  sessionNotices(o.printer, {
    workspace: o.workspace,
    skills,
    custom,
    web,
    memory,
    memoryOpened: services.memoryOpened,
    memoryOff: !o.memory.enabled,
    sandbox: sandboxStatus,
    modelSource: o.models.settings.source,
    model: o.models.settings.model,
    isFinished: () => finished,
  });
  try {
    if (o.continueStopped) {
      // Decided again under the lock: another process may have continued the session since `resume` looked at it.
      const stopped = (await graph.getState({ configurable: config.configurable })).values as WorkspaceStateValue;
      const resume = planContinuation(stopped, o.budget, o.prices);
      if (resume.kind === "continue") {
        o.printer.emit({
          type: "notice",
          level: "info",
          message: `Continuing after the stop (${describeStop(stopped.stop)}); the limits count from zero again.`,
        });
        // A step the planner had chosen before the stop starts now, without the planner: announce it here.
        const step = resume.values.currentStepId ? stopped.plan.find((s) => s.id === resume.values.currentStepId) : undefined;
        const values = step ? { ...resume.values, stepStart: { stepId: step.id, context: await projectContext(o.workspace) } } : resume.values;
        await graph.updateState({ configurable: config.configurable }, values, resume.asNode);
        if (step) o.printer.emit({ type: "step_started", stepId: step.id, agent: step.agent, goal: step.goal });
      }
    }
    let input: GraphInput = o.fresh ? { task: o.task, workspace: o.workspace, limits: o.limits, safety: o.safety } : null;
    if (o.followUp !== undefined && !o.fresh) input = await followUpInput(graph, config.configurable, { ...o, followUp: o.followUp, sessions });
    // Memory and the codebase index start once the first model request is out: loading Chroma's client and the
    // embedder is work on this thread, which started first would hold that request back (about 0.15 s with Chroma
    // running). MCP servers start at once: a resumed approval judges an MCP call by its server's annotations.
    const requestOut = afterFirstRequest(FIRST_REQUEST_FALLBACK_MS);
    for (;;) {
      // A signal of its own for each invoke, following the run's: LangGraph leaves a listener on the signal of every
      // invoke, and a session resumes once per approval (eleven on one signal made Node warn of a leak).
      const round = new AbortController();
      const follow = () => round.abort(run.controller.signal.reason);
      run.controller.signal.addEventListener("abort", follow, { once: true });
      if (run.controller.signal.aborted) follow();
      const running = graph.invoke(input, { ...config, signal: round.signal }).finally(() => run.controller.signal.removeEventListener("abort", follow));
      // The undo baseline (git processes, spawned by the launcher helper) starts while the first planner call is on
      // its way, not before it: the first sub-agent's tools wait for it (beforeStep). The planner's first turn goes
      // ahead without memories unless memory is open by then.
      void undo.before();
      void requestOut.then(() => {
        services.startMemory();
        // The index shares memory's Chroma server: it opens once memory has, so memory is the one that starts the
        // server (its notice says so) and the index's build does not compete with the first turns.
        void services.memoryOpened.then(
          (m) => services.codeIndex?.begin(m.endpoint && m.client ? { endpoint: m.endpoint, client: m.client } : undefined),
          () => services.codeIndex?.begin(),
        );
      });
      services.startMcp();
      const result: unknown = await running;
      const pending = pendingRequest(result);
      if (!pending) break;
      const { request, resumeWith } = pending;
      if (isQuestionRequest(request)) {
        // An agent or the planner asked the person (ask_user): the answer goes back to it as the tool's result.
        run.asking = true;
        o.printer.emit({ ...request, type: "question_asked" });
        const said = await Promise.race([o.prompter.askQuestion(request), run.signal]);
        run.asking = false;
        if (said === "interrupted" || said === null) {
          // The question is in the checkpoint: `resume` asks it again without calling the model.
          if (said === "interrupted") o.prompter.close();
          await sessions.update(o.sessionId, { status: "awaiting_input" });
          const why = said === "interrupted" ? "Interrupted; the question is still open" : "Waiting for an answer (stdin closed)";
          await finish({ type: "session_finished", sessionId: o.sessionId, status: "awaiting_input", report: `${why}. Answer it with: ${resumeCommand}` });
          return EXIT.interrupted;
        }
        o.printer.emit({ type: "question_answered", answer: said });
        input = resumeWith({ answer: said });
        continue;
      }
      // Asked only because of the approval mode, which has changed since (resume --approval auto, an editor's mode
      // switch): the mode answers. The decision stays the agent's record of that call; nothing is judged again.
      if (request.modeOnly === true && !modeAsks(o.safety, request.kind, sandboxStatus.kind !== "bubblewrap")) {
        o.printer.emit({ type: "approval_answered", decision: "approve", detail: `by the approval mode (${o.safety.approval})` });
        input = resumeWith({ decision: "approve" });
        continue;
      }
      // The graph paused before a command or file change: ask, then resume it with the answer.
      run.asking = true;
      o.printer.emit({ ...request, type: "approval_requested" });
      // A signal wins over a question still waiting for stdin (a pipe kept open, or a person who walked away).
      const answer = await Promise.race([o.prompter.ask(request), run.signal]);
      run.asking = false;
      if (answer === "interrupted" || !answer) {
        // The pause is in the checkpoint: `resume` asks the same question again without calling the model.
        if (answer === "interrupted") o.prompter.close();
        await sessions.update(o.sessionId, { status: "awaiting_approval" });
        o.printer.emit({ type: "approval_answered", decision: "pending", detail: answer === "interrupted" ? "interrupted" : "no answer (stdin closed)" });
        await finish({
          type: "session_finished",
          sessionId: o.sessionId,
          status: "awaiting_approval",
          report: `${answer === "interrupted" ? "Interrupted; the approval is still pending" : "Waiting for approval"}. Answer it with: ${resumeCommand}`,
        });
        return EXIT.interrupted;
      }
      o.printer.emit({
        type: "approval_answered",
        decision: answer.decision,
        detail: answer.decision === "reject" ? answer.reason : answer.decision === "always" ? answer.pattern : "",
      });
      input = resumeWith(answer);
    }
    const state = (await graph.getState(config)).values as WorkspaceStateValue;
    const usage = summarizeUsage(state.usage, o.prices);
    const status = state.status === "running" ? "failed" : state.status;
    await sessions.update(o.sessionId, { status, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: usage.costUsd });
    let report = state.finalReport || renderFinalReport(state, o.prices);
    if (state.status === "limit_reached" && isBudgetStop(state.stop)) report += `\n${budgetHint(state.stop, turnUsage(usage, state.turn), resumeCommand)}`;
    o.onOutcome?.({ status, stop: state.stop });
    await finish({ type: "session_finished", sessionId: o.sessionId, status, report, usage });
    return exitCodeForStatus(status);
  } catch (error) {
    // A damaged database can record nothing more: say which file and what to do, and stop (exit 2).
    const damaged = damagedDatabaseLine(error);
    if (damaged !== undefined) {
      o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${damaged}` });
      return EXIT.usage;
    }
    await recordProgress(graph, config, o);
    const lostLine = run.lostDatabase ?? o.database.connectionProblem(error);
    if (lostLine !== null) {
      o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${lostLine}` });
      await finish({
        type: "session_finished",
        sessionId: o.sessionId,
        status: "interrupted",
        report: `Stopped: the session database went away; the completed steps are saved. Resume once it is back with: ${resumeCommand}`,
      });
      return EXIT.failed;
    }
    if (run.interrupted) {
      await finish({ type: "session_finished", sessionId: o.sessionId, status: "interrupted", report: `Interrupted. Resume with: ${resumeCommand}` });
      return EXIT.interrupted;
    }
    const { settings } = o.models;
    const line = errorLine(error, {
      endpoint: settings.baseUrl ?? "https://api.openai.com/v1",
      model: settings.model,
      attempts: settings.maxRetries + 1,
      timeoutMs: settings.timeoutMs,
    });
    o.printer.emit({ type: "notice", level: "error", message: `The session stopped: ${line}` });
    await finish({
      type: "session_finished",
      sessionId: o.sessionId,
      status: "interrupted",
      report: `Stopped on an error; the completed steps are saved. Resume with: ${resumeCommand}`,
    });
    return EXIT.failed;
  } finally {
    run.detach();
    o.prompter.close();
    diagnostics.close();
    if (undo.started) await undo.after();
    await worktree?.committer.settled();
    await Promise.all([memory.close(), services.mcp.close(), processes.stopAll(), recording.flush()]);
    if (!o.lock) await lock.release();
  }
}

type GraphInput = Parameters<ReturnType<typeof compileGraph>["invoke"]>[0];

async function recordProgress(graph: ReturnType<typeof compileGraph>, config: { configurable: { thread_id: string } }, o: SessionRunOptions) {
  try {
    const state = (await graph.getState({ configurable: config.configurable })).values as Partial<WorkspaceStateValue>;
    const usage = summarizeUsage(state.usage ?? {}, o.prices);
    await o.database.sessions.update(o.sessionId, {
      status: "interrupted",
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd,
    });
  } catch {
    // A database that went away keeps the row as it was: `sessions` shows a "running" row nobody holds as interrupted.
    await o.database.sessions.update(o.sessionId, { status: "interrupted" }).catch(() => {});
  }
}
