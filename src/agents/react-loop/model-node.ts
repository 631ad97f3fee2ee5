import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AgentName, ProgressEvent } from "../../runtime/events.js";
import { runBudgetExceeded, type RunBudget } from "../../cost/budget.js";
import { measureCall } from "../../cost/estimate.js";
import type { FinishToolSpec } from "../types.js";
import { fitToBudget } from "./context-budget.js";
import type { LoopStateUpdate, LoopStateValue } from "./loop-state.js";

export interface ModelNodeDeps {
  agent: AgentName;
  model: BaseChatModel;
  tools: StructuredToolInterface[];
  finishTool: FinishToolSpec;
  requireFinishTool: boolean;
  maxModelCalls: number;
  maxPromptTokens: number;
  stepId: string;
  /** Upper bound for one call including retries, so a stalled endpoint cannot hang the run. */
  callTimeoutMs: number;
  emit: (event: ProgressEvent) => void;
  /** The session's token/cost budget: the run stops before a model call once it is used up. */
  budget?: RunBudget;
}

function toJsonSchema(tool: StructuredToolInterface): unknown {
  const schema: unknown = tool.schema;
  if (typeof schema === "object" && schema !== null && "toJSONSchema" in schema && typeof schema.toJSONSchema === "function") {
    return (schema as { toJSONSchema: () => unknown }).toJSONSchema();
  }
  return schema;
}

/** The run's own abort (Ctrl-C) or the per-call deadline, whichever comes first. */
export function callSignal(runSignal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const deadline = AbortSignal.timeout(timeoutMs);
  return runSignal ? AbortSignal.any([runSignal, deadline]) : deadline;
}

export function textOf(message: BaseMessage | undefined): string {
  if (!message) return "";
  const c = message.content;
  if (typeof c === "string") return c;
  return c
    .map((part) => (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : ""))
    .join("");
}

/**
 * Arguments that were not valid JSON arrive in `invalid_tool_calls`, which the OpenAI converter would drop
 * from the next request while our error reply to them stays: fold them into `tool_calls` (empty args)
 * so every tool result keeps its call and the tools node answers them with an error.
 */
function normalize(reply: AIMessage): AIMessage {
  const invalid = reply.invalid_tool_calls ?? [];
  if (invalid.length === 0) return reply;
  return new AIMessage({
    content: reply.content,
    id: reply.id,
    tool_calls: [
      ...(reply.tool_calls ?? []),
      ...invalid.map((c, i) => ({ id: c.id ?? `invalid_${i}`, name: c.name ?? "unknown", args: {}, type: "tool_call" as const })),
    ],
    invalid_tool_calls: invalid.map((c, i) => ({ ...c, id: c.id ?? `invalid_${i}` })),
    usage_metadata: reply.usage_metadata,
    response_metadata: reply.response_metadata,
  });
}

export function createModelNode(deps: ModelNodeDeps) {
  const finishDefinition = {
    type: "function" as const,
    function: {
      name: deps.finishTool.name,
      description: deps.finishTool.description,
      parameters: deps.finishTool.schema.toJSONSchema(),
    },
  };
  if (!deps.model.bindTools) throw new Error(`the model for ${deps.agent} does not support tool calling`);
  const bound = deps.model.bindTools([...deps.tools, finishDefinition]);
  // Tool definitions travel with every prompt: count them against the budget (4 characters per token).
  const definitions = JSON.stringify([...deps.tools.map((t) => ({ name: t.name, description: t.description, schema: toJsonSchema(t) })), finishDefinition]);
  const overhead = Math.ceil(definitions.length / 4);

  return async (state: LoopStateValue, config: LangGraphRunnableConfig): Promise<LoopStateUpdate> => {
    if (state.modelCalls >= deps.maxModelCalls) return { stopReason: "call_limit" };
    const overBudget = deps.budget ? runBudgetExceeded(deps.budget, state) : null;
    if (overBudget) return { stopReason: "budget", stopDetail: overBudget };
    const view = await fitToBudget(state.messages, deps.maxPromptTokens, overhead, deps.model);
    const compactedNow = view.cleared && !state.compacted;
    if (compactedNow) {
      deps.emit({
        type: "notice",
        level: "info",
        message: `${deps.agent} ${deps.stepId}: older context ${view.summarized > 0 ? `summarized (${view.summarized} turns)` : "cleared"} to keep prompts under ${deps.maxPromptTokens} tokens`,
      });
    }
    const raw = await bound.invoke(view.messages, { signal: callSignal(config.signal, deps.callTimeoutMs) });
    const reply = normalize(AIMessage.isInstance(raw) ? raw : new AIMessage({ content: textOf(raw) }));
    const { inputTokens, outputTokens, estimated } = measureCall(view.messages, reply, overhead);
    deps.emit({ type: "model_call", agent: deps.agent, inputTokens, outputTokens, estimated });
    const update: LoopStateUpdate = {
      ...(compactedNow ? { compacted: true } : {}),
      messages: [reply],
      modelCalls: state.modelCalls + 1,
      inputTokens: state.inputTokens + inputTokens,
      outputTokens: state.outputTokens + outputTokens,
      estimatedCalls: state.estimatedCalls + (estimated ? 1 : 0),
    };
    if ((reply.tool_calls ?? []).length > 0) return update;
    if (deps.requireFinishTool && !state.nudged) {
      // One reminder: weaker models often answer in prose instead of calling the finish tool.
      update.messages = [
        reply,
        new HumanMessage(`You must end by calling the ${deps.finishTool.name} tool with your structured result. Call it now.`),
      ];
      update.nudged = true;
      return update;
    }
    update.stopReason = "text";
    return update;
  };
}
