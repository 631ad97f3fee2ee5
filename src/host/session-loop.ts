import { projectContext } from "../agents/brief.js";
import { describeStop, isQuestionRequest, modeAsks, type ApprovalRequest, type QuestionRequest } from "../core/index.js";
import { planContinuation } from "../graph/continue-session.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import { afterFirstRequest } from "./first-request.js";
import { followUpInput } from "./follow-up-turn.js";
import { pendingRequest } from "./pending-request.js";
import type { GraphStreamSink, SessionRunOptions } from "./session-options.js";
import { EXIT } from "./session-exit.js";
import type { PreparedSession, SessionGraph } from "./session-prepare.js";

/** The codebase index starts after this when no model request goes out first (a resumed session that asks a person first). */
const FIRST_REQUEST_FALLBACK_MS = 500;

type GraphInput = Parameters<SessionGraph["invoke"]>[0];

/** How the loop ended: the graph ran to its end, or the session paused on a question or approval nobody answered (exit code). */
export type LoopEnd = { kind: "ended" } | { kind: "paused"; code: number };

/**
 * Invokes the graph until it ends: each pause for a question or an approval is asked, and the graph resumed with the
 * answer. A question or approval left unanswered (a signal, stdin closed) ends the session with it pending.
 */
export async function runLoop(p: PreparedSession, o: SessionRunOptions): Promise<LoopEnd> {
  const { graph, config, run, services } = p;
  if (o.continueStopped) await continueAfterStop(p, o);
  let input: GraphInput = o.fresh ? { task: o.task, workspace: o.workspace, limits: o.limits, safety: o.safety } : null;
  if (o.followUp !== undefined && !o.fresh)
    input = await followUpInput(graph, config.configurable, { ...o, followUp: o.followUp, sessions: o.database.sessions });
  // The codebase index starts building once the first model request is out and memory is open (it shares memory's
  // Chroma): its walk and embedding would compete with that request. MCP servers start at once: a resumed approval
  // judges an MCP call by its server's annotations.
  const requestOut = afterFirstRequest(FIRST_REQUEST_FALLBACK_MS);
  for (;;) {
    // A signal of its own for each invoke, following the run's: LangGraph leaves a listener on the signal of every
    // invoke, and a session resumes once per approval (eleven on one signal made Node warn of a leak).
    const round = new AbortController();
    const follow = () => round.abort(run.controller.signal.reason);
    run.controller.signal.addEventListener("abort", follow, { once: true });
    if (run.controller.signal.aborted) follow();
    const invoked = o.streamTo
      ? streamed(graph, input, { ...config, signal: round.signal }, o.streamTo)
      : graph.invoke(input, { ...config, signal: round.signal });
    const running = invoked.finally(() => run.controller.signal.removeEventListener("abort", follow));
    // The undo baseline (git processes, spawned by the launcher helper) starts while the first planner call is on
    // its way, not before it: the first sub-agent's tools wait for it (beforeStep). The planner's first turn goes
    // ahead without memories unless memory is open by then.
    void services.undo.before();
    void requestOut.then(() =>
      // Memory is the one that starts the Chroma server (its notice says so); the index opens on it once it is open.
      services.memoryOpened.then(
        (m) => services.codeIndex?.begin(m.endpoint && m.client ? { endpoint: m.endpoint, client: m.client } : undefined),
        () => services.codeIndex?.begin(),
      ),
    );
    services.startMcp();
    const pending = pendingRequest(await running);
    if (!pending) return { kind: "ended" };
    const answer = isQuestionRequest(pending.request) ? await answerQuestion(p, o, pending.request) : await answerApproval(p, o, pending.request);
    if (answer.kind === "paused") return answer;
    input = pending.resumeWith(answer.value);
  }
}

/**
 * The graph run as a stream, each chunk handed to `sink`; what it returns is invoke's result: the last top-level
 * values, with the pause (`__interrupt__`) the top-level updates reported, if it paused.
 */
async function streamed(graph: SessionGraph, input: GraphInput, config: Parameters<SessionGraph["stream"]>[1], sink: GraphStreamSink): Promise<unknown> {
  let values: Record<string, unknown> = {};
  let paused: unknown;
  const stream = await graph.stream(input, { ...config, streamMode: ["values", "updates", "custom"], subgraphs: true });
  for await (const chunk of stream as AsyncIterable<[string[], string, unknown]>) {
    const [namespace, mode, data] = chunk;
    if (namespace.length === 0 && mode === "values" && typeof data === "object" && data !== null) values = data as Record<string, unknown>;
    if (namespace.length === 0 && mode === "updates" && typeof data === "object" && data !== null && "__interrupt__" in data) paused = data.__interrupt__;
    sink(namespace, mode, data);
  }
  return paused === undefined ? values : { ...values, __interrupt__: paused };
}

type Answered = { kind: "answered"; value: unknown } | { kind: "paused"; code: number };

/** An agent or the planner asked the person (ask_user): the answer goes back to it as the tool's result. */
async function answerQuestion(p: PreparedSession, o: SessionRunOptions, request: QuestionRequest): Promise<Answered> {
  p.run.asking = true;
  o.printer.emit({ ...request, type: "question_asked" });
  const said = await Promise.race([o.prompter.askQuestion(request), p.run.signal]);
  p.run.asking = false;
  if (said === "interrupted" || said === null) {
    // The question is in the checkpoint: `resume` asks it again without calling the model.
    if (said === "interrupted") o.prompter.close();
    await o.database.sessions.update(o.sessionId, { status: "awaiting_input" });
    const why = said === "interrupted" ? "Interrupted; the question is still open" : "Waiting for an answer (stdin closed)";
    await p.finish({ type: "session_finished", sessionId: o.sessionId, status: "awaiting_input", report: `${why}. Answer it with: ${p.resumeCommand}` });
    return { kind: "paused", code: EXIT.interrupted };
  }
  o.printer.emit({ type: "question_answered", answer: said });
  return { kind: "answered", value: { answer: said } };
}

/** The graph paused before a command or file change: ask, then resume it with the answer. */
async function answerApproval(p: PreparedSession, o: SessionRunOptions, request: ApprovalRequest): Promise<Answered> {
  // Asked only because of the approval mode, which has changed since (resume --approval auto, an editor's mode
  // switch): the mode answers. The decision stays the agent's record of that call; nothing is judged again.
  if (request.modeOnly === true && !modeAsks(o.safety, request.kind, p.sandbox.kind !== "bubblewrap")) {
    o.printer.emit({ type: "approval_answered", decision: "approve", detail: `by the approval mode (${o.safety.approval})` });
    return { kind: "answered", value: { decision: "approve" } };
  }
  p.run.asking = true;
  o.printer.emit({ ...request, type: "approval_requested" });
  // A signal wins over a question still waiting for stdin (a pipe kept open, or a person who walked away).
  const answer = await Promise.race([o.prompter.ask(request), p.run.signal]);
  p.run.asking = false;
  if (answer === "interrupted" || !answer) {
    // The pause is in the checkpoint: `resume` asks the same question again without calling the model.
    if (answer === "interrupted") o.prompter.close();
    await o.database.sessions.update(o.sessionId, { status: "awaiting_approval" });
    o.printer.emit({ type: "approval_answered", decision: "pending", detail: answer === "interrupted" ? "interrupted" : "no answer (stdin closed)" });
    await p.finish({
      type: "session_finished",
      sessionId: o.sessionId,
      status: "awaiting_approval",
      report: `${answer === "interrupted" ? "Interrupted; the approval is still pending" : "Waiting for approval"}. Answer it with: ${p.resumeCommand}`,
    });
    return { kind: "paused", code: EXIT.interrupted };
  }
  o.printer.emit({
    type: "approval_answered",
    decision: answer.decision,
    detail: answer.decision === "reject" ? answer.reason : answer.decision === "always" ? answer.pattern : "",
  });
  return { kind: "answered", value: answer };
}

/** A session that ended failed or limit_reached continues from its last checkpoint (src/graph/continue-session.ts). */
async function continueAfterStop(p: PreparedSession, o: SessionRunOptions): Promise<void> {
  const { graph, config } = p;
  // Decided again under the lock: another process may have continued the session since `resume` looked at it.
  const stopped = (await graph.getState({ configurable: config.configurable })).values as WorkspaceStateValue;
  const resume = planContinuation(stopped, o.budget, o.prices);
  if (resume.kind !== "continue") return;
  o.printer.emit({ type: "notice", level: "info", message: `Continuing after the stop (${describeStop(stopped.stop)}); the limits count from zero again.` });
  // A step the planner had chosen before the stop starts now, without the planner: announce it here.
  const step = resume.values.currentStepId ? stopped.plan.find((s) => s.id === resume.values.currentStepId) : undefined;
  const values = step ? { ...resume.values, stepStart: { stepId: step.id, context: await projectContext(o.workspace) } } : resume.values;
  await graph.updateState({ configurable: config.configurable }, values, resume.asNode);
  if (step) o.printer.emit({ type: "step_started", stepId: step.id, agent: step.agent, goal: step.goal });
}
