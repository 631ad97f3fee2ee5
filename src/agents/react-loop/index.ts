import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, START, StateGraph } from "@langchain/langgraph";
import type { AgentName, ProgressEvent } from "../../runtime/events.js";
import type { FinishToolSpec, LoopOutcome } from "../types.js";
import { LoopState, type LoopStateValue } from "./loop-state.js";
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
  callTimeoutMs: number;
  emit: (event: ProgressEvent) => void;
}

function afterModel(state: LoopStateValue): "tools" | "model" | typeof END {
  if (state.stopReason) return END;
  const last = state.messages.at(-1);
  // A reminder was appended: ask the model again.
  if (last && HumanMessage.isInstance(last)) return "model";
  return "tools";
}

function afterTools(state: LoopStateValue): "model" | typeof END {
  return state.stopReason ? END : "model";
}

/**
 * One sub-agent as its own ReAct subgraph (model ⇄ tools) with its own messages. It is compiled without a
 * checkpointer: its transcript never enters the session's checkpoints, and the parent node is the unit
 * that is checkpointed (an interrupted run is redone whole on resume).
 */
export function buildReactLoop(options: ReactLoopOptions) {
  return new StateGraph(LoopState)
    .addNode("model", createModelNode(options))
    .addNode("tools", createToolsNode(options))
    .addEdge(START, "model")
    .addConditionalEdges("model", afterModel, ["tools", "model", END])
    .addConditionalEdges("tools", afterTools, ["model", END])
    .compile({ checkpointer: false, name: `${options.agent}-loop` });
}

export async function runReactLoop(
  options: ReactLoopOptions,
  systemPrompt: string,
  brief: string,
): Promise<LoopOutcome & { inputTokens: number; outputTokens: number }> {
  const loop = buildReactLoop(options);
  const final = await loop.invoke(
    { messages: [new SystemMessage(systemPrompt), new HumanMessage(brief)] },
    // Each model call is at most two graph steps (model, tools) plus the one reminder.
    { recursionLimit: options.maxModelCalls * 2 + 6 },
  );
  const lastAi = [...final.messages].reverse().find((m) => m.getType() === "ai");
  return {
    finish: final.finish,
    lastText: textOf(lastAi),
    stopReason: final.stopReason === "" ? "text" : final.stopReason,
    modelCalls: final.modelCalls,
    filesChanged: final.filesChanged,
    commands: final.commands,
    inputTokens: final.inputTokens,
    outputTokens: final.outputTokens,
  };
}
