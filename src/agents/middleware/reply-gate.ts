import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command, interrupt, isCommand } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { type AgentRun, runOf } from "../run.js";
import { AgentRunState, type AgentRunUpdate, type AgentRunValue } from "../run.js";
import { askRecorded } from "./approval.js";
import type { AgentDeps } from "./deps.js";
import { answeredText, answerOf, ASK_USER_TOOL_NAME, askUserArgsSchema, questionLimitText, type QuestionRequest } from "../../core/index.js";

type GateUpdate = Pick<AgentRunUpdate, "decisions" | "allowPatterns" | "answers">;

interface Gate {
  /** The approvals and answers for every call of one reply; rejects with LangGraph's interrupt while someone is asked. */
  outcome: Promise<GateUpdate | undefined>;
  /** Whether one tool result already carries the outcome into the run state (a plain channel takes one write a step). */
  written: boolean;
}

/**
 * The gate between a model reply and its tools, at the start of the tools step: the person is asked about every call
 * of the reply recorded as "ask" when the reply arrived (approval.ts), and every ask_user call is asked (below),
 * before any tool of the reply runs; then each call runs on its decision, or is refused (tool-calls.ts). It is the
 * outermost tool wrap, so the loop guard sees each call's own result, and the gate's outcome is added to one of the results afterwards.
 * Not an after-model hook: each hook is a graph step with a checkpoint of its own, ~4 ms of CPU per model call
 * (issue 11). When someone is asked, LangGraph interrupts the tools step and runs it again on resume; no tool ran
 * before the questions, the gate has no side effects, and the earlier `interrupt()` calls return their recorded
 * answers, so nothing runs twice.
 */
export function replyGateMiddleware(deps: Pick<AgentDeps, "spec" | "emit" | "forceAsk" | "extensions">) {
  // Per reply object: a resumed step reads the state again and asks the recorded "ask"s again (interrupt() returns
  // the answers already given).
  const gates = new WeakMap<AIMessage, Gate>();
  const judge = async (state: AgentRunValue, context: unknown): Promise<GateUpdate | undefined> => {
    const run = runOf(state, context);
    // An approved MCP call runs in its server: on resume, the server must be up before the calls run.
    await deps.extensions?.ready(run.workspace);
    // The recorded "ask"s of the reply (judged when it arrived: approval.ts), asked in order; nothing is judged again.
    const approvals = askRecorded(run, deps);
    // Questions (ask_user) are asked after the approvals, like the order of the prompts a person sees.
    const questions = askQuestions(run, deps);
    return approvals || questions ? Object.assign({}, approvals, questions) : undefined;
  };
  return createMiddleware({
    name: "ReplyGate",
    stateSchema: AgentRunState,
    wrapToolCall: async (request, handler) => {
      const reply = request.state.messages.findLast((m): m is AIMessage => AIMessage.isInstance(m));
      let gate = reply ? gates.get(reply) : undefined;
      if (!gate) {
        // The tools step starts every call of the reply at once: the first one starts the gate, the others wait for it.
        gate = { outcome: judge(request.state, request.runtime.context), written: false };
        if (reply) gates.set(reply, gate);
      }
      const update = await gate.outcome;
      // The tools refuse what was not approved (tool-calls.ts), inside the loop guard, which counts refusals too.
      const result = await handler(update ? { ...request, state: { ...request.state, ...update } } : request);
      if (!update || gate.written) return result;
      gate.written = true;
      return withUpdate(result, update);
    },
  });
}

/** A tool's result with the gate's outcome written to the run state alongside it. */
function withUpdate(result: ToolMessage | Command, update: GateUpdate): Command {
  if (!isCommand(result)) return new Command({ update: { messages: [result], ...update } });
  const own: unknown = result.update;
  const merged = Array.isArray(own)
    ? [...(own as [string, unknown][]), ...Object.entries(update)]
    : { ...(own as Record<string, unknown> | undefined), ...update };
  const goto = result.goto;
  const hasGoto = goto !== undefined && (!Array.isArray(goto) || goto.length > 0);
  return new Command({ update: merged, graph: result.graph, ...(hasGoto ? { goto } : {}) });
}

/**
 * Asks the person each ask_user call of the newest reply, in the reply gate (after the model, before any tool of the
 * reply runs), like approvals: asking in the tool call itself would run the reply's other tools again when the run
 * resumes, since LangGraph re-runs the whole interrupted step. This has no side effects, so the step runs again
 * safely on resume: earlier `interrupt()` calls return their recorded answers, and no model is called before the
 * answer. Calls past the turn's limit are not asked (their tool result says so).
 */
export function askQuestions(state: AgentRun, deps: Pick<AgentDeps, "spec">): Pick<AgentRunUpdate, "answers"> | undefined {
  const last = state.messages.at(-1);
  if (!last || !AIMessage.isInstance(last)) return undefined;
  const calls = (last.tool_calls ?? []).filter((c) => c.name === ASK_USER_TOOL_NAME && c.id && state.answers[c.id] === undefined);
  if (calls.length === 0) return undefined;
  const answers = { ...state.answers };
  let asked = state.questions.asked + Object.keys(state.answers).length;
  let recorded = false;
  for (const call of calls) {
    const args = askUserArgsSchema.safeParse(call.args);
    if (!args.success || asked >= state.questions.max) continue;
    const request: QuestionRequest = {
      type: "question",
      agent: deps.spec.name,
      stepId: state.stepId,
      question: args.data.question,
      choices: args.data.choices ?? [],
    };
    answers[call.id ?? ""] = answerOf(interrupt(request));
    asked += 1;
    recorded = true;
  }
  return recorded ? { answers } : undefined;
}

/** The result of an ask_user call: the person's answer, or why it was not asked. */
export function answerCall(state: AgentRun, call: { id?: string; args: Record<string, unknown> }): ToolMessage {
  const id = call.id ?? "";
  const done = (content: string, ok: boolean) => new ToolMessage({ tool_call_id: id, name: ASK_USER_TOOL_NAME, content, status: ok ? "success" : "error" });
  const args = askUserArgsSchema.safeParse(call.args);
  if (!args.success)
    return done(`Error: invalid arguments for ask_user: ${args.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}.`, false);
  const answer = state.answers[id];
  return answer === undefined ? done(questionLimitText(state.questions.max), false) : done(answeredText(answer), true);
}

/** The questions this run asked, with the person's answers, in order (the planner sees them on later turns). */
export function answeredQuestions(state: Pick<AgentRunValue, "answers" | "messages">): { question: string; answer: string }[] {
  const asked: { question: string; answer: string }[] = [];
  for (const m of state.messages) {
    if (!AIMessage.isInstance(m)) continue;
    for (const call of m.tool_calls ?? []) {
      const answer = call.id ? state.answers[call.id] : undefined;
      const args = askUserArgsSchema.safeParse(call.args);
      if (call.name === ASK_USER_TOOL_NAME && answer !== undefined && args.success) asked.push({ question: args.data.question, answer });
    }
  }
  return asked;
}

/** How many questions this run asked (the session counts them: src/graph/nodes/sub-agent.ts). */
export function questionsAsked(state: Pick<AgentRunValue, "answers">): number {
  return Object.keys(state.answers).length;
}
