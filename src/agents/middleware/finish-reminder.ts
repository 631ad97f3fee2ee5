import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { AgentRunState } from "../run-state.js";
import { runUsage } from "../transcript.js";
import { sessionBudgetSpent } from "./usage.js";
import type { AgentDeps } from "./deps.js";

/**
 * Agents that must return structured output (the reviewer's verdict) get one reminder when they answer in prose:
 * weaker models often do. LangChain's structured-output strategies force a tool call on every turn instead, which
 * would also take away plain-text endings from the agents that may use them.
 */
export function finishReminderMiddleware(deps: Pick<AgentDeps, "spec" | "models" | "prices" | "budget">) {
  const { spec } = deps;
  return createMiddleware({
    name: "FinishReminder",
    stateSchema: AgentRunState,
    afterModel: {
      canJumpTo: ["model"],
      hook: (state) => {
        const last = state.messages.at(-1);
        if (!spec.requireFinishTool || state.nudged || !last || !AIMessage.isInstance(last) || (last.tool_calls ?? []).length > 0) return undefined;
        // The jump goes straight to the model, past the checks that run before a model call: make them here.
        if (runUsage(state.messages).modelCalls >= state.maxModelCalls) return undefined;
        const spent = sessionBudgetSpent(deps, state);
        if (spent) return { stop: { kind: "budget" as const, detail: spent } };
        return {
          messages: [new HumanMessage(`You must end by calling the ${spec.finishTool.name} tool with your structured result. Call it now.`)],
          nudged: true,
          jumpTo: "model" as const,
        };
      },
    },
  });
}
