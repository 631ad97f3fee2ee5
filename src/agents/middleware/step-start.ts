import { HumanMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { projectContext } from "../project-context.js";
import { AgentRunState } from "../run-state.js";
import type { AgentDeps } from "./deps.js";

/**
 * Starts a run once: announces the step and hands the agent its brief with the project context. It is a node of its
 * own, so when the run resumes after an approval or a crash it is not repeated.
 */
export function stepStartMiddleware(deps: Pick<AgentDeps, "spec" | "emit">) {
  return createMiddleware({
    name: "StepStart",
    stateSchema: AgentRunState,
    beforeAgent: async (state) => {
      deps.emit({ type: "step_started", stepId: state.stepId, agent: deps.spec.name, goal: state.goal });
      const context = await projectContext(state.workspace);
      return { messages: [new HumanMessage(context ? `${state.brief}\n\n${context}` : state.brief)] };
    },
  });
}
