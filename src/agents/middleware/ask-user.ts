import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { answeredText, answerOf, ASK_USER_TOOL_NAME, askUserArgsSchema, questionLimitText, type QuestionRequest } from "../../core/index.js";
import type { AgentRunUpdate, AgentRunValue } from "../run-state.js";
import type { AgentRun } from "../run-context.js";
import type { AgentDeps } from "./deps.js";

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
    const request: QuestionRequest = { type: "question", agent: deps.spec.name, stepId: state.stepId, question: args.data.question, choices: args.data.choices ?? [] };
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
  if (!args.success) return done(`Error: invalid arguments for ask_user: ${args.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}.`, false);
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
