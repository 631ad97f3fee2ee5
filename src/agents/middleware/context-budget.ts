import { AIMessage } from "@langchain/core/messages";
import type { BaseLanguageModel } from "@langchain/core/language_models/base";
import { fitToBudget, toolsOverhead } from "../context-budget.js";
import { runOf } from "../run-context.js";
import { COMPACTED, wasCompacted } from "../transcript.js";
import type { ModelCallDeps, ModelCallWrap } from "./deps.js";

/**
 * Keeps every prompt under the run's token budget (src/agents/context-budget.ts: large arguments and replies of
 * earlier turns elided, then LangChain's ClearToolUsesEdit, then a deterministic fold of the oldest turns). Only the
 * request's messages change: the stored transcript keeps everything. Hand-written around the edit because LangChain's
 * contextEditingMiddleware fixes its trigger when the agent is built (our budget is per session, in the run's context)
 * and edits the state's own message list in place; and its summarization middleware spends a model call and loses
 * exit codes.
 */
export function fitContext(deps: Pick<ModelCallDeps, "spec" | "emit">): ModelCallWrap {
  return async (request, handler) => {
    const { maxPromptTokens: budget, stepId } = runOf(request.state, request.runtime.context);
    const view = await fitToBudget(request.messages, budget, toolsOverhead(request.tools), request.model as BaseLanguageModel);
    const reply = await handler({ ...request, messages: view.messages });
    if (!view.cleared || !AIMessage.isInstance(reply)) return reply;
    if (!wasCompacted(request.state.messages)) {
      deps.emit({
        type: "notice",
        level: "info",
        message: `${deps.spec.name} ${stepId}: older context ${view.summarized > 0 ? `summarized (${view.summarized} turns)` : "cleared"} to keep prompts under ${budget} tokens`,
      });
    }
    reply.response_metadata = { ...reply.response_metadata, [COMPACTED]: true };
    return reply;
  };
}
