import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, START, StateGraph } from "@langchain/langgraph";
import type { AgentName, ProgressEvent } from "../../runtime/events.js";
import type { SafetyPolicy } from "../../safety/policy.js";
import type { RunBudget } from "../../cost/budget.js";
import type { FinishToolSpec, LoopOutcome } from "../types.js";
import { LoopState, type LoopStateValue } from "./loop-state.js";
import { createApproveNode } from "./approve-node.js";
import { createModelNode, textOf } from "./model-node.js";
import { createToolsNode } from "./tools-node.js";

export interface ReactLoopOptions {
  agent: AgentName;
  stepId: string;
  model: BaseChatModel;
  tools: StructuredToolInterface[];
  finishTool: FinishToolSpec;
  requireFinishTool: boolean;
  maxModelCalls: number;
  /** Token budget of every prompt (estimated); older context is cleared or summarized to stay under it. */
  maxPromptTokens: number;
  callTimeoutMs: number;
  emit: (event: ProgressEvent) => void;
  workspace: string;
  safety: SafetyPolicy;
  /** "Always" patterns granted earlier in the session. */
  allowPatterns?: string[];
  /** The session's token/cost budget (src/cost/budget.ts); the model node stops the run once it is used up. */
  budget?: RunBudget;
}

function afterModel(state: LoopStateValue): "approve" | "model" | typeof END {
  if (state.stopReason) return END;
  const last = state.messages.at(-1);
  // A reminder was appended: ask the model again.
  if (last && HumanMessage.isInstance(last)) return "model";
  return "approve";
}

function afterTools(state: LoopStateValue): "model" | typeof END {
  return state.stopReason ? END : "model";
}

/**
 * One sub-agent as its own ReAct subgraph (model → approve → tools → model …) with its own messages. It shares
 * the session's checkpointer under its own namespace, so an approval pause or a crash resumes inside the run
 * instead of redoing it; its transcript stays in its own namespace, out of the shared workspace state.
 */
export function buildReactLoop(options: ReactLoopOptions) {
  return new StateGraph(LoopState)
    .addNode("model", createModelNode(options))
    .addNode("approve", createApproveNode(options))
    .addNode("tools", createToolsNode(options))
    .addEdge(START, "model")
    .addConditionalEdges("model", afterModel, ["approve", "model", END])
    .addEdge("approve", "tools")
    .addConditionalEdges("tools", afterTools, ["model", END])
    .compile({ name: `${options.agent}-loop` });
}

export async function runReactLoop(
  options: ReactLoopOptions,
  systemPrompt: string,
  brief: string,
): Promise<LoopOutcome & { inputTokens: number; outputTokens: number; estimatedCalls: number; allowPatterns: string[] }> {
  const loop = buildReactLoop(options);
  const final = await loop.invoke(
    { messages: [new SystemMessage(systemPrompt), new HumanMessage(brief)], allowPatterns: options.allowPatterns ?? [] },
    // Each model call is at most three graph steps (model, approve, tools) plus the one reminder.
    { recursionLimit: options.maxModelCalls * 3 + 6 },
  );
  const lastAi = [...final.messages].reverse().find((m) => m.getType() === "ai");
  return {
    finish: final.finish,
    lastText: textOf(lastAi),
    stopReason: final.stopReason === "" ? "text" : final.stopReason,
    stopDetail: final.stopDetail,
    modelCalls: final.modelCalls,
    filesChanged: final.filesChanged,
    commands: final.commands,
    inputTokens: final.inputTokens,
    outputTokens: final.outputTokens,
    estimatedCalls: final.estimatedCalls,
    allowPatterns: final.allowPatterns,
  };
}
