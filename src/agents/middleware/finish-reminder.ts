import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Budget } from "../../cost/budget.js";
import type { AgentRunUpdate } from "../run-state.js";
import type { AgentRun } from "../run-context.js";
import { isModelReply, runUsage } from "../transcript.js";
import type { ModelCallDeps } from "./deps.js";
import { sessionBudgetSpent } from "./usage.js";

/**
 * Agents that must return structured output (the reviewer's verdict) get one reminder when they answer in prose:
 * weaker models often do (run by middleware/model-call.ts after the reply). LangChain's structured-output strategies
 * force a tool call on every turn instead, which would also take away plain-text endings from the agents that may
 * use them.
 */
export function finishReminder(state: AgentRun, deps: Pick<ModelCallDeps, "spec" | "models" | "prices">, budget: Budget): (AgentRunUpdate & { jumpTo?: "model" }) | undefined {
  const { spec } = deps;
  const last = state.messages.at(-1);
  // Only a real prose reply: not tool calls, not the note of a run that was ended without a model call.
  if (!spec.requireFinishTool || state.nudged || !last || !AIMessage.isInstance(last) || !isModelReply(last) || (last.tool_calls ?? []).length > 0) return undefined;
  // The jump goes straight to the model, past the checks of the usage middleware's next call: make them here.
  if (runUsage(state.messages).modelCalls >= state.maxModelCalls) return undefined;
  const spent = sessionBudgetSpent(deps, state, budget);
  if (spent) return { stop: { kind: "budget", detail: spent } };
  return {
    messages: [new HumanMessage(`You must end by calling the ${spec.finishTool.name} tool with your structured result. Call it now.`)],
    nudged: true,
    jumpTo: "model",
  };
}
