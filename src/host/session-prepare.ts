import { compileGraph } from "../graph/build-graph.js";
import type { ProgressEvent } from "../core/index.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import type { SandboxStatus } from "../safety/sandbox/types.js";
import type { HeldSessionLock } from "../sessions/session-records.js";
import { processesLine, takeEarlierProcesses } from "./background-record.js";
import { loadSessionAgents } from "./custom-agents.js";
import { wireGraphDeps } from "./graph-deps.js";
import { elicitThrough } from "./elicit-person.js";
import { resumeCommandFor } from "./resume-hint.js";
import { RunInterrupts } from "./run-interrupts.js";
import { sessionNotices } from "./session-notices.js";
import { recordSession, type SessionRecording } from "./session-recording.js";
import type { StoredRunOptions } from "./stored-options.js";
import type { SessionRunOptions } from "./session-options.js";
import { type SessionServices, startSessionServices } from "./session-services.js";
import { WorktreeSession } from "./worktree-session.js";

export type SessionGraph = ReturnType<typeof compileGraph>;
export type SessionFinished = Extract<ProgressEvent, { type: "session_finished" }>;

/** A session ready to run: its lock, services, graph and run configuration. */
export interface PreparedSession {
  lock: HeldSessionLock;
  resumeCommand: string;
  run: RunInterrupts;
  services: SessionServices;
  sandbox: SandboxStatus;
  worktree: WorktreeSession | null;
  recording: SessionRecording;
  graph: SessionGraph;
  config: {
    configurable: { thread_id: string } & Record<string, unknown>;
    recursionLimit: number;
    signal: AbortSignal;
  };
  /** Reports the session's end; background processes never outlive it: stopped before the report, which names them. */
  finish(event: SessionFinished): Promise<void>;
}

/**
 * Takes the session's lock, starts (or takes over) its services, builds its graph on the session database and tells
 * the person the session started. Undo (the workspace as it was before this session first changed it; a resumed
 * session keeps its first), memory and the sandbox probe run in child processes alongside the first planner call;
 * each is awaited where it is used.
 */
export async function prepareSession(o: SessionRunOptions): Promise<PreparedSession> {
  const lock = o.lock ?? (await o.database.lockSession(o.sessionId));
  // A worktree session is found from its main checkout (its database is there).
  const resumeCommand = resumeCommandFor(o.sessionId, o.worktree?.home ?? o.workspace, o.cwd ?? process.cwd());
  const run = new RunInterrupts({ printer: o.printer, resumeCommand, lock, databaseLabel: o.database.label, ...(o.cancel ? { cancel: o.cancel } : {}) });
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
  const { undo } = services;
  // Background processes an earlier run of this session left running died with it (the report says so).
  const gone = processesLine("gone", takeEarlierProcesses(o.workspace, o.sessionId));
  let finished = false;
  const worktree = o.worktree ? new WorktreeSession(o.worktree, o.sessionId, o.env, o.printer) : null;
  const finish = async (event: SessionFinished) => {
    finished = true;
    const stopped = processesLine("stopped", await services.sessionProcesses.stopAll());
    const reported = { ...event, report: [event.report, gone, stopped].filter(Boolean).join("\n") };
    o.printer.emit(worktree ? await worktree.finished(reported) : reported);
  };
  // Agent files become nodes of the graph, so they are read before it is built.
  const custom = await loadSessionAgents(o.workspace, o.env, o.models);
  const sandbox = await services.sandbox;
  // Every model call is recorded in the session database, for `mini-cursor replay`.
  // With the settings this run has, so a replay runs each turn with its own (a later `resume` may change them).
  const settings: StoredRunOptions = { limits: o.limits, commandTimeoutMs: o.commandTimeoutMs, budget: o.budget, safety: o.safety };
  const recording = await recordSession(o.database.recordings, o.sessionId, o.printer, {
    settings: JSON.stringify(settings),
    ...(!o.fresh && o.followUp !== undefined ? { followUp: o.followUp } : {}),
  });
  const graph = compileGraph(
    wireGraphDeps({
      models: recording.models(o.answerFrom ?? custom.models),
      modelSettings: o.models.settings,
      prices: o.prices,
      events: recording.events,
      memory: services.memory,
      sandbox,
      commandTimeoutMs: o.commandTimeoutMs,
      extensions: services.extensions,
      elicit: elicitThrough(o.prompter, recording.events),
      skills: services.skills,
      web: services.web,
      diagnostics: services.diagnostics,
      processes: services.sessionProcesses,
      ...(services.codeIndex ? { codeIndex: services.codeIndex } : {}),
      ...(o.editor ? { editor: o.editor } : {}),
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
  // A run resumed inside a step continues it without starting it again: its calls belong to that step.
  if (!o.fresh) recording.resumedIn(await runningStep(graph, o.sessionId));
  const config = {
    // The budget, safety policy, limits and folder travel with the run (a resume may change them, or move the
    // session to another checkout): src/models/cost/budget.ts budgetOf, src/core safetyOf, limitsOf and workspaceOf; the
    // graph prefers them over its state, even mid-step.
    configurable: { thread_id: o.sessionId, budget: o.budget, safety: o.safety, limits: o.limits, runWorkspace: o.workspace },
    // Two supersteps per sub-agent run (agent, planner) plus the first plan and finish.
    recursionLimit: o.limits.maxAgentRuns * 2 + 10,
    signal: run.controller.signal,
  };
  await o.database.sessions.update(o.sessionId, { status: "running", model: o.modelLabel });
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
    skills: services.skills,
    custom,
    web: services.web,
    memory: services.memory,
    memoryOpened: services.memoryOpened,
    memoryOff: !o.memory.enabled,
    sandbox,
    modelSource: o.models.settings.source,
    model: o.models.settings.model,
    isFinished: () => finished,
  });
  return { lock, resumeCommand, run, services, sandbox, worktree, recording, graph, config, finish };
}

/** The plan step whose agent runs next when the session continues (null: the planner or the finish runs next, or it ended). */
async function runningStep(graph: SessionGraph, sessionId: string): Promise<string | null> {
  const snapshot = await graph.getState({ configurable: { thread_id: sessionId } });
  const agentNext = snapshot.next.some((node) => node !== "planner" && node !== "finish");
  return agentNext ? (snapshot.values as WorkspaceStateValue).currentStepId : null;
}
