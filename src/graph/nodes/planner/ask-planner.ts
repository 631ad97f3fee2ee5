import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { textOf } from "../../../agents/transcript.js";
import { callSignal } from "../../../models/call-signal.js";
import { endpointSaid, isRejectedRequest } from "../../../models/model-errors.js";
import { estimateTokens, measureCall, type CallUsage } from "../../../cost/estimate.js";
import { answeredText, ASK_USER_TOOL_NAME, askUserArgsSchema, questionLimitText } from "../../../core/index.js";
import { askUserTool } from "../../../tools/ask-user.js";
import { PLAN_TOOL_REMINDER, PLANNER_SYSTEM_PROMPT } from "./prompt.js";
import { builtinPlanTool, PLAN_TOOL_NAME, type PlanTool, type PlanToolArgs } from "./plan-tool.js";

export interface PlannerAnswer {
  args: PlanToolArgs | null;
  error: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  /** Calls whose reply had no usage data (their tokens are estimates). */
  estimatedCalls: number;
  /** The model asked the person (ask_user) instead of planning: the session pauses for the answer. */
  question?: PlannerQuestion;
}

/** A question the planner's model asked; kept in the session state while it waits for the answer. */
export interface PlannerQuestion {
  id: string;
  question: string;
  choices: string[];
}

const MAX_ATTEMPTS = 3;

/** Models without reliable tool calling sometimes answer with the JSON in the text; accept that too. */
function jsonFromText(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidate = fenced ?? text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  if (!candidate.trim()) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
}

/**
 * Model clients whose endpoint refused `tool_choice` (HTTP 400/422): later planner calls in this process ask without
 * it at once instead of paying for the refusal again.
 */
export type ToolChoiceRefusals = WeakSet<BaseChatModel>;

export interface AskPlannerOptions {
  callTimeoutMs: number;
  runSignal?: AbortSignal | undefined;
  /** Told about every model call (an answer may take several attempts). */
  onCall?: (usage: CallUsage) => void;
  refusals: ToolChoiceRefusals;
  /** Told once, with the endpoint's words, when it refuses `tool_choice` and the planner asks without it. */
  onFallback?: (said: string) => void;
  /** The session's plan tool and system prompt (they list its custom agents); default: the built-in agents only. */
  planTool?: PlanTool;
  systemPrompt?: string;
  /** The model may ask the person (ask_user; the turn's limit of questions is not reached). */
  mayAsk?: boolean;
  /** The limit of questions per turn (for the refusal past it). */
  maxQuestions?: number;
  /** The question this turn asked and the person's answer: the model gets both, then plans. */
  answered?: PlannerQuestion & { answer: string };
}

/**
 * One planner decision, validated by zod. The call names update_plan in `tool_choice`, so a model cannot answer in
 * prose where the endpoint enforces it; an endpoint that refuses the parameter is asked without it (and remembered).
 * Invalid answers go back to the model with the validation error (a few attempts) instead of failing the session; an
 * answer with the plan's JSON in its text is accepted too.
 */
export async function askPlanner(model: BaseChatModel, context: string, o: AskPlannerOptions): Promise<PlannerAnswer> {
  if (!model.bindTools) throw new Error("the planner model does not support tool calling");
  const planTool = o.planTool ?? builtinPlanTool;
  // The plan tool's definition travels with every prompt; estimates count it too.
  const planToolTokens = estimateTokens(JSON.stringify(planTool.definition).length);
  // ask_user is offered while the session may still ask (or when the model already asked this turn: its call is in
  // the messages); a tool must then be called ("required") rather than update_plan by name, so asking stays possible.
  const offerAsk = o.mayAsk === true || o.answered !== undefined;
  const tools = offerAsk ? [planTool.definition, askUserTool] : [planTool.definition];
  const free = model.bindTools(tools);
  const forced = model.bindTools(tools, { tool_choice: offerAsk ? "required" : PLAN_TOOL_NAME });
  const messages: BaseMessage[] = [new SystemMessage(o.systemPrompt ?? PLANNER_SYSTEM_PROMPT), new HumanMessage(context)];
  if (o.answered) {
    const { id, question, choices, answer } = o.answered;
    messages.push(new AIMessage({ content: "", tool_calls: [{ id, name: ASK_USER_TOOL_NAME, args: choices.length > 0 ? { question, choices } : { question }, type: "tool_call" }] }));
    messages.push(new ToolMessage({ tool_call_id: id, name: ASK_USER_TOOL_NAME, content: answeredText(answer) }));
  }
  const answer: PlannerAnswer = { args: null, error: "", inputTokens: 0, outputTokens: 0, calls: 0, estimatedCalls: 0 };
  const invoke = async () => {
    if (o.refusals.has(model)) return free.invoke(messages, { signal: callSignal(o.runSignal, o.callTimeoutMs) });
    try {
      return await forced.invoke(messages, { signal: callSignal(o.runSignal, o.callTimeoutMs) });
    } catch (error) {
      if (!isRejectedRequest(error)) throw error;
      o.refusals.add(model);
      o.onFallback?.(endpointSaid(error));
      return free.invoke(messages, { signal: callSignal(o.runSignal, o.callTimeoutMs) });
    }
  };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const raw = await invoke();
    const reply = AIMessage.isInstance(raw) ? raw : new AIMessage({ content: textOf(raw) });
    const usage = measureCall(messages, reply, planToolTokens);
    answer.calls += 1;
    answer.inputTokens += usage.inputTokens;
    answer.outputTokens += usage.outputTokens;
    if (usage.estimated) answer.estimatedCalls += 1;
    o.onCall?.(usage);

    const call = (reply.tool_calls ?? []).find((c) => c.name === PLAN_TOOL_NAME);
    const ask = call ? undefined : (reply.tool_calls ?? []).find((c) => c.name === ASK_USER_TOOL_NAME);
    if (ask) {
      const parsed = askUserArgsSchema.safeParse(ask.args);
      // One question per planner turn: the answer to the last one is in the messages.
      if (parsed.success && o.mayAsk === true && !o.answered) {
        answer.question = { id: ask.id ?? `ask-${answer.calls}`, question: parsed.data.question, choices: parsed.data.choices ?? [] };
        return answer;
      }
      answer.error = parsed.success ? "no question may be asked now" : `invalid ask_user arguments (${parsed.error.issues.map((i) => i.message).join("; ")})`;
      messages.push(new AIMessage({ content: reply.content, tool_calls: [ask] }));
      const refusal = !parsed.success
        ? `Error: ${answer.error}.`
        : o.answered
          ? "Error: you asked once this turn already; decide yourself, and say in the plan what you assumed."
          : questionLimitText(o.maxQuestions ?? 0);
      messages.push(new ToolMessage({ tool_call_id: ask.id ?? "", name: ASK_USER_TOOL_NAME, content: `${refusal} ${PLAN_TOOL_REMINDER}`, status: "error" }));
      continue;
    }
    const badCall = (reply.invalid_tool_calls ?? [])[0];
    const candidate: unknown = call ? call.args : jsonFromText(textOf(reply));
    const parsed = candidate === undefined ? null : planTool.schema.safeParse(candidate);
    if (parsed?.success) {
      answer.args = parsed.data;
      return answer;
    }
    answer.error = parsed
      ? parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")
      : badCall
        ? `arguments were not valid JSON (${badCall.error ?? "parse error"})`
        : "no update_plan call in the answer";
    if (call?.id) {
      messages.push(new AIMessage({ content: reply.content, tool_calls: [call] }));
      messages.push(new ToolMessage({ tool_call_id: call.id, name: PLAN_TOOL_NAME, content: `Error: ${answer.error}. Call update_plan again with valid arguments.`, status: "error" }));
    } else {
      messages.push(new AIMessage({ content: textOf(reply) || "(no answer)" }));
      messages.push(new HumanMessage(`Error: ${answer.error}. ${PLAN_TOOL_REMINDER}`));
    }
  }
  return answer;
}
