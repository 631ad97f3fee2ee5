import { createMiddleware } from "langchain";
import { budgetOf } from "../../cost/budget.js";
import { AgentRunState, withRunSettings } from "../run-state.js";
import { approvalDecisions, refuseUnapproved } from "./approval.js";
import { askQuestions } from "./ask-user.js";
import type { AgentDeps } from "./deps.js";
import { finishReminder } from "./finish-reminder.js";

/**
 * What happens to each model reply, in one after-model step (every hook is a graph step with a checkpoint of its
 * own): tool calls go through the approval gate (approval.ts); a prose answer from an agent that owes structured
 * output gets its one reminder (finish-reminder.ts). The tools then refuse what was not approved.
 */
export function replyGateMiddleware(deps: Pick<AgentDeps, "spec" | "emit" | "forceAsk" | "models" | "prices" | "extensions">) {
  return createMiddleware({
    name: "ReplyGate",
    stateSchema: AgentRunState,
    afterModel: {
      canJumpTo: ["model"],
      hook: async (state, runtime) => {
        // Whether an MCP tool asks depends on its annotations: on resume, its server must be up before judging again.
        await deps.extensions?.ready(state.workspace);
        const approvals = approvalDecisions(state, deps, runtime.configurable);
        // Questions (ask_user) are asked here too, after the approvals: before any tool of the reply runs.
        const questions = askQuestions(state, deps);
        if (approvals || questions) return Object.assign({}, approvals, questions);
        return finishReminder(withRunSettings(state, runtime.configurable), deps, budgetOf(runtime.configurable));
      },
    },
    wrapToolCall: async (request, handler) => {
      const refused = refuseUnapproved(request.state, request.toolCall, deps, request.runtime.configurable);
      return refused ?? handler(request);
    },
  });
}
