import type { ClientTool } from "@langchain/core/tools";
import { createAgent, modelCallLimitMiddleware, modelRetryMiddleware } from "langchain";
import { PerRunModel } from "./per-run-model.js";
import { approvalMiddleware } from "./middleware/approval.js";
import { contextBudgetMiddleware } from "./middleware/context-budget.js";
import type { AgentDeps } from "./middleware/deps.js";
import { finishReminderMiddleware } from "./middleware/finish-reminder.js";
import { loopGuardMiddleware } from "./middleware/loop-guard.js";
import { modelSelectMiddleware } from "./middleware/model-select.js";
import { stepStartMiddleware } from "./middleware/step-start.js";
import { createFinishTool, declaredTools, toolCallsMiddleware } from "./middleware/tool-calls.js";
import { usageMiddleware } from "./middleware/usage.js";
import { AgentRunState } from "./run-state.js";

/**
 * One sub-agent as a LangChain agent (model → tools loop) compiled once, to be mounted in the session graph as a
 * subgraph. Middleware order matters: wrap hooks nest with the first one outermost, so the model is chosen, then the
 * prompt is fitted to the budget, then the call is metered; tool calls are serialized and guarded against loops, then
 * approved, then run.
 */
/** A provider's "too many requests": worth waiting for. */
export function isRateLimit(error: Error): boolean {
  const status = (error as { status?: unknown }).status;
  return status === 429 || /\b429\b|rate limit/i.test(error.message);
}

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
      stepStartMiddleware(deps),
      // Listed before the call limit: after-model hooks run last-listed first, so the limit counts a prose reply
      // before the reminder sends the agent back to its model.
      finishReminderMiddleware(deps),
      // Per run: the limit comes from the run's context (`runLimit`), the session's --max-model-calls.
      modelCallLimitMiddleware({ exitBehavior: "end" }),
      loopGuardMiddleware(deps),
      approvalMiddleware(deps),
      modelSelectMiddleware(deps),
      contextBudgetMiddleware(deps),
      // The client already retries 5xx, resets and malformed replies; a 429 without Retry-After it gives up on.
      modelRetryMiddleware({ maxRetries: 3, initialDelayMs: 2_000, backoffFactor: 2, retryOn: isRateLimit, onFailure: "error" }),
      usageMiddleware(deps),
      toolCallsMiddleware(deps),
    ] as const,
  });
  return agent.graph;
}

export type AgentGraph = ReturnType<typeof buildAgent>;
