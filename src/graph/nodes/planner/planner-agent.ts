import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import type { ModelCallDeps, ModelCallWrap, RoleSpec } from "../../../agents/middleware/deps.js";
import { modelCallMiddleware } from "../../../agents/middleware/model-call.js";
import { PerRunModel } from "../../../agents/per-run-model.js";
import { agentRunContextSchema, contextOf, type AgentRunContext } from "../../../agents/run-context.js";
import { AgentRunState } from "../../../agents/run-state.js";
import { runUsage, type RunUsage } from "../../../agents/transcript.js";
import { answeredText, ASK_USER_TOOL_NAME, askUserArgsSchema, questionLimitText } from "../../../core/index.js";
import { ForcedToolReplies } from "../../../models/forced-tool-replies.js";
import { askUserTool } from "../../../tools/ask-user.js";
import { PLAN_TOOL_NAME, type PlanTool, type PlanToolArgs } from "./plan-tool.js";
import { PLAN_TOOL_REMINDER } from "./prompt.js";

/** A question the planner's model asked; kept in the session state while it waits for the answer. */
export interface PlannerQuestion {
  id: string;
  question: string;
  choices: string[];
}

/** What one planner run decided: a plan, or a question for the person, or neither (with why), and what it used. */
export interface PlannerAnswer {
  args: PlanToolArgs | null;
  question?: PlannerQuestion;
  error: string;
  usage: RunUsage;
}

/** The model calls of one planner run: an invalid or prose answer is sent back with why, twice at most. */
export const PLANNER_MAX_CALLS = 3;

const PLANNER_ROLE: RoleSpec = { name: "planner", finishTool: { name: PLAN_TOOL_NAME }, requireFinishTool: true };

/** A successful ask_user result earlier in the run: the question the session asked this turn, with its answer. */
function askedThisTurn(messages: readonly BaseMessage[], exceptCall?: string): boolean {
  const asks = new Set(messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : [])).filter((c) => c.name === ASK_USER_TOOL_NAME).map((c) => c.id));
  return messages.some((m) => ToolMessage.isInstance(m) && asks.has(m.tool_call_id) && m.status !== "error" && m.tool_call_id !== exceptCall);
}

/**
 * ask_user as the planner has it: a question it may ask ends the planner's run (returnDirect) and the planner node
 * pauses the session for the answer; one past the turn's limit, or a second one this turn, goes back as a tool error.
 */
const plannerAskTool = tool(
  (_args, config): ToolMessage => {
    const id = config.toolCall?.id ?? "";
    const messages = (config as { state?: { messages?: BaseMessage[] } }).state?.messages ?? [];
    const { questions } = contextOf(config.context);
    const refusal = askedThisTurn(messages, id)
      ? "Error: you asked once this turn already; decide yourself, and say in the plan what you assumed."
      : questions.asked >= questions.max
        ? questionLimitText(questions.max)
        : undefined;
    if (refusal) return new ToolMessage({ tool_call_id: id, name: ASK_USER_TOOL_NAME, content: `${refusal} ${PLAN_TOOL_REMINDER}`, status: "error" });
    return new ToolMessage({ tool_call_id: id, name: ASK_USER_TOOL_NAME, content: "Asked; the session waits for the person's answer." });
  },
  { name: ASK_USER_TOOL_NAME, description: askUserTool.description, schema: askUserArgsSchema, returnDirect: true },
);

export interface PlannerAgentDeps extends Omit<ModelCallDeps, "spec"> {
  /** Told once per model client, with the endpoint's words, when it refuses `tool_choice`. */
  onToolChoiceRefused: (said: string) => void;
}

/**
 * The planner's model loop as a LangChain agent: its answer is createAgent's structured response (`responseFormat`:
 * the plan tool's strategy validates it and sends an invalid one back to the model), its model calls go through the
 * same model-call middleware as the sub-agents' (metering, budget, the call limit, the prose reminder), and ask_user
 * is its one tool. Compiled once per session graph, run without a checkpointer: the planner node around it is the
 * checkpointed step, and a planner run is a few calls that a resumed session simply makes again.
 */
export function buildPlannerAgent(deps: PlannerAgentDeps, planTool: PlanTool, systemPrompt: string) {
  // One adapter per model client, so an endpoint's refusal of tool_choice is paid for once (src/models).
  const adapters = new WeakMap<BaseChatModel, ForcedToolReplies>();
  const adapterOf = (model: BaseChatModel): ForcedToolReplies => {
    let adapter = adapters.get(model);
    if (!adapter) {
      adapter = new ForcedToolReplies(model, { textTool: PLAN_TOOL_NAME, onRefused: deps.onToolChoiceRefused });
      adapters.set(model, adapter);
    }
    return adapter;
  };
  // ask_user is offered while the turn may still ask, or once asked (its call is in the messages).
  const select: ModelCallWrap = async (request, handler) => {
    const { questions } = contextOf(request.runtime.context);
    const offerAsk = questions.asked < questions.max || askedThisTurn(request.state.messages);
    return handler({ ...request, model: adapterOf(deps.models.forRole("planner")), tools: offerAsk ? request.tools : [] });
  };
  return createAgent({
    name: "planner",
    model: new PerRunModel({}),
    tools: [plannerAskTool],
    systemPrompt,
    responseFormat: planTool.strategy,
    stateSchema: AgentRunState,
    contextSchema: agentRunContextSchema,
    checkpointer: false,
    middleware: [modelCallMiddleware({ ...deps, spec: PLANNER_ROLE }, select)] as const,
  }).graph;
}

export type PlannerAgent = ReturnType<typeof buildPlannerAgent>;

/** The planner's input: its view of the session, and the question it asked this turn with the person's answer. */
export function plannerInput(context: string, answered?: PlannerQuestion & { answer: string }): { messages: BaseMessage[] } {
  const messages: BaseMessage[] = [new HumanMessage(context)];
  if (answered) {
    const { id, question, choices, answer } = answered;
    messages.push(new AIMessage({ content: "", tool_calls: [{ id, name: ASK_USER_TOOL_NAME, args: choices.length > 0 ? { question, choices } : { question }, type: "tool_call" }] }));
    // Unnamed: a last message named after a returnDirect tool would end the agent before its first model call.
    messages.push(new ToolMessage({ tool_call_id: id, content: answeredText(answer) }));
  }
  return { messages };
}

/** Runs the planner once and reads its decision back from the run's end state. */
export async function askPlanner(
  agent: PlannerAgent,
  planTool: PlanTool,
  input: { messages: BaseMessage[] },
  context: AgentRunContext,
  signal: AbortSignal | undefined,
): Promise<PlannerAnswer> {
  const inputCount = input.messages.length;
  const final = await agent.invoke(input, { context, recursionLimit: context.maxModelCalls * 4 + 10, signal });
  const usage = runUsage(final.messages);
  const made = final.messages.slice(inputCount);
  const planned = final.structuredResponse === undefined ? undefined : planTool.schema.safeParse(final.structuredResponse);
  if (planned?.success) return { args: planned.data, error: "", usage };
  const asked = made.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === ASK_USER_TOOL_NAME && m.status !== "error");
  const call = asked && made.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : [])).find((c) => c.id === asked.tool_call_id);
  const parsed = call ? askUserArgsSchema.safeParse(call.args) : undefined;
  if (call && parsed?.success) {
    return { args: null, error: "", usage, question: { id: call.id ?? "ask", question: parsed.data.question, choices: parsed.data.choices ?? [] } };
  }
  // Refusals of ask_user are tool errors; LangChain's structured output sends its validation error as a plain result.
  const lastError = made.filter((m): m is ToolMessage => ToolMessage.isInstance(m) && (m.status === "error" || m.text.startsWith("Error:"))).at(-1);
  const error = planned ? planned.error.message : lastError ? lastError.text.replace(/^Error: /, "").slice(0, 300) : `no ${PLAN_TOOL_NAME} call in the answer`;
  return { args: null, error, usage };
}
