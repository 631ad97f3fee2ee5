import { AIMessage } from "@langchain/core/messages";
import { Command, getCurrentTaskInput } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { runOf } from "../run-context.js";
import type { AgentRunValue } from "../run-state.js";
import { judgeReply } from "./approval.js";
import { fitContext } from "./context-budget.js";
import type { ModelCallDeps, ModelCallHandler, ModelCallWrap } from "./deps.js";
import { finishReminder } from "./finish-reminder.js";
import { meterUsage } from "./usage.js";

type ModelCallRequest = Parameters<ModelCallHandler>[0];

/** The agent's model node (LangChain's createAgent): a reminder goes straight back to it. */
const MODEL_NODE = "model_request";

/**
 * Everything around a model call as ONE middleware: the model and tools are chosen (`select`: model-select.ts for a
 * sub-agent, the planner's own), the prompt is
 * fitted to the budget (context-budget), then the call is metered or not made (usage), nested in that order; the
 * reply's tool calls are then judged for approval once (approval.ts judgeReply) and the reply gets the one finish
 * reminder when it owes structured output (finish-reminder).
 * One rather than three, and with no state schema of its own, because LangChain rebuilds a zod schema from a wrapping
 * middleware's state schema and parses the state with it on every model call (0.2–0.6 ms a call, measured here):
 * the run state is the model node's own input, read from LangGraph (getCurrentTaskInput). The reminder is here rather
 * than in an after-model hook because each hook is a graph step with a checkpoint of its own (~4 ms a model call).
 */
export function modelCallMiddleware(deps: ModelCallDeps, select: ModelCallWrap) {
  const wraps: readonly ModelCallWrap[] = [select, fitContext(deps), meterUsage(deps)];
  return createMiddleware({
    name: "ModelCall",
    wrapModelCall: async (request, handler) => {
      const step = (i: number, current: ModelCallRequest): Promise<AIMessage> => {
        const wrap = wraps[i];
        return wrap ? wrap(current, (next) => step(i + 1, next)) : Promise.resolve(handler(current));
      };
      // The model node's input is the whole run state; the transcript is the request's (a wrap may have changed it).
      const run = getCurrentTaskInput<AgentRunValue>();
      const reply = await step(0, { ...request, state: { ...run, messages: request.state.messages } });
      // A structured answer (the planner's plan) ends the run: nothing to judge or remind.
      if (!AIMessage.isInstance(reply)) return reply;
      const state = runOf({ ...run, messages: [...request.state.messages, reply] }, request.runtime.context);
      // Each call of the reply is judged once, now, and the verdicts are checkpointed with the reply (approval.ts).
      const decisions = judgeReply(reply, state, deps);
      const reminder = finishReminder(state, deps, state.budget);
      if (!reminder) return decisions ? new Command({ update: { decisions } }) : reply;
      // LangChain writes the reply first, then this update: the transcript reads reply, reminder.
      const { jumpTo, ...update } = reminder;
      return new Command({ update: { ...update, ...(decisions ? { decisions } : {}) }, ...(jumpTo ? { goto: MODEL_NODE } : {}) });
    },
  });
}
