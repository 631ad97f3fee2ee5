import { createAgent } from "langchain";
import { PerRunModel } from "./per-run-model.js";
import type { AgentDeps } from "./middleware/deps.js";
import { loopGuardMiddleware } from "./middleware/loop-guard.js";
import { modelCallMiddleware, selectModel } from "./middleware/model-call.js";
import { replyGateMiddleware } from "./middleware/reply-gate.js";
import { toolCallsMiddleware } from "./middleware/tool-calls.js";
import { buildAgentTools } from "./agent-tools.js";
import { agentRunContextSchema } from "./run.js";
import { AgentRunState } from "./run.js";

/**
 * One sub-agent as a LangChain agent (model → tools loop) compiled once, to be mounted in the session graph as a
 * subgraph. Middleware order matters: wrap hooks nest with the first one outermost, so the model is chosen, then the
 * prompt is fitted to the budget, then the call is metered (or not made once the run must stop), and a prose reply
 * that owes structured output gets its reminder; at the start of the tools step the reply passes the reply gate
 * (approvals, questions); tool calls are serialized and guarded against loops, refused unless approved, then run.
 * Per model call a run is two graph steps, the model and the tools, as in a bare LangGraph ReAct loop: no
 * before/after hooks, since each hook is a graph step with a checkpoint of its own (docs/benchmarks.md).
 */
export function buildAgent(deps: AgentDeps) {
  const { spec } = deps;
  const tools = buildAgentTools(deps);
  const agent = createAgent({
    name: spec.name,
    model: new PerRunModel({}),
    tools,
    stateSchema: AgentRunState,
    // The run's inputs (workspace, step, safety, limits, budget): runtime context, given by src/graph/nodes/sub-agent.ts.
    contextSchema: agentRunContextSchema,
    // One tools task per reply: the loop guard runs its calls in order (v2 would fan them out as parallel tasks).
    version: "v1",
    middleware: [
      // Outermost around tool calls: approvals and questions for the whole reply before any of its tools runs.
      replyGateMiddleware(deps),
      loopGuardMiddleware(deps),
      // The reply's judging and reminder, model choice, the context budget and metering; retries (5xx, resets,
      // malformed replies, rate limits) belong to the model client: src/models/checked-completions.ts.
      ...modelCallMiddleware(deps, selectModel(deps)),
      toolCallsMiddleware(deps),
    ] as const,
  });
  return agent.graph;
}

export type AgentGraph = ReturnType<typeof buildAgent>;
