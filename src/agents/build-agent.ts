import type { ClientTool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { PerRunModel } from "./per-run-model.js";
import type { AgentDeps } from "./middleware/deps.js";
import { loopGuardMiddleware } from "./middleware/loop-guard.js";
import { modelCallMiddleware } from "./middleware/model-call.js";
import { replyGateMiddleware } from "./middleware/reply-gate.js";
import { createFinishTool, declaredTools, toolCallsMiddleware } from "./middleware/tool-calls.js";
import { AgentRunState } from "./run-state.js";

/**
 * One sub-agent as a LangChain agent (model → tools loop) compiled once, to be mounted in the session graph as a
 * subgraph. Middleware order matters: wrap hooks nest with the first one outermost, so the model is chosen, then the
 * prompt is fitted to the budget, then the call is metered (or not made once the run must stop); each reply then
 * passes the reply gate (approval, finish reminder); tool calls are serialized and guarded against loops, refused
 * unless approved, then run. Per model call a run is three graph steps (the model, the reply
 * gate, the tools): hooks are graph steps with checkpoints of their own, so they are few.
 */
export function buildAgent(deps: AgentDeps) {
  const { spec } = deps;
  const tools: ClientTool[] = [...declaredTools(spec.tools), createFinishTool(spec.finishTool)];
  const agent = createAgent({
    name: spec.name,
    model: new PerRunModel({}),
    tools,
    stateSchema: AgentRunState,
    // One tools task per reply: the loop guard runs its calls in order (v2 would fan them out as parallel tasks).
    version: "v1",
    middleware: [
      loopGuardMiddleware(deps),
      replyGateMiddleware(deps),
      // Model choice, the context budget and metering; retries (5xx, resets, malformed replies, rate limits) belong to
      // the model client: src/models/checked-completions.ts.
      modelCallMiddleware(deps),
      toolCallsMiddleware(deps),
    ] as const,
  });
  return agent.graph;
}

export type AgentGraph = ReturnType<typeof buildAgent>;
