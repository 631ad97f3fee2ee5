import type { AIMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { budgetOf } from "../../cost/budget.js";
import { ModelCallState, withRunSettings } from "../run-state.js";
import { fitContext } from "./context-budget.js";
import type { AgentDeps, ModelCallHandler, ModelCallWrap } from "./deps.js";
import { finishReminder } from "./finish-reminder.js";
import { selectModel } from "./model-select.js";
import { meterUsage } from "./usage.js";

/** The agent's model node (LangChain's createAgent): a reminder goes straight back to it. */
const MODEL_NODE = "model_request";

/**
 * Everything around a model call as ONE middleware: the model and tools are chosen (model-select), the prompt is
 * fitted to the budget (context-budget), then the call is metered or not made (usage), nested in that order; the
 * reply then gets the one finish reminder when it owes structured output (finish-reminder).
 * One rather than three because LangChain rebuilds and re-parses a middleware's state schema on every model call
 * for each wrapping middleware that declares one (0.2–0.35 ms per middleware per call, measured here); the reminder
 * here rather than in an after-model hook because each hook is a graph step with a checkpoint (~4 ms a model call).
 */
export function modelCallMiddleware(deps: AgentDeps) {
  const wraps: readonly ModelCallWrap[] = [selectModel(deps), fitContext(deps), meterUsage(deps)];
  return createMiddleware({
    name: "ModelCall",
    stateSchema: ModelCallState,
    wrapModelCall: async (request, handler) => {
      const step = (i: number, current: Parameters<ModelCallHandler>[0]): Promise<AIMessage> => {
        const wrap = wraps[i];
        return wrap ? wrap(current, (next) => step(i + 1, next)) : Promise.resolve(handler(current));
      };
      const reply = await step(0, request);
      const state = withRunSettings({ ...request.state, messages: [...request.state.messages, reply] }, request.runtime.configurable);
      const reminder = finishReminder(state, deps, budgetOf(request.runtime.configurable));
      if (!reminder) return reply;
      // LangChain writes the reply first, then this update: the transcript reads reply, reminder.
      const { jumpTo, ...update } = reminder;
      return new Command({ update, ...(jumpTo ? { goto: MODEL_NODE } : {}) });
    },
  });
}
