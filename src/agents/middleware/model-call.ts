import type { AIMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { ModelCallState } from "../run-state.js";
import { fitContext } from "./context-budget.js";
import type { AgentDeps, ModelCallHandler, ModelCallWrap } from "./deps.js";
import { selectModel } from "./model-select.js";
import { meterUsage } from "./usage.js";


/**
 * Everything around a model call as ONE middleware: the model and tools are chosen (model-select), the prompt is
 * fitted to the budget (context-budget), then the call is metered or not made (usage), nested in that order.
 * One rather than three because LangChain rebuilds and re-parses a middleware's state schema on every model call
 * for each wrapping middleware that declares one (0.2–0.35 ms per middleware per call, measured here).
 */
export function modelCallMiddleware(deps: AgentDeps) {
  const wraps: readonly ModelCallWrap[] = [selectModel(deps), fitContext(deps), meterUsage(deps)];
  return createMiddleware({
    name: "ModelCall",
    stateSchema: ModelCallState,
    wrapModelCall: (request, handler) => {
      const step = (i: number, current: Parameters<ModelCallHandler>[0]): Promise<AIMessage> => {
        const wrap = wraps[i];
        return wrap ? wrap(current, (next) => step(i + 1, next)) : Promise.resolve(handler(current));
      };
      return step(0, request);
    },
  });
}
