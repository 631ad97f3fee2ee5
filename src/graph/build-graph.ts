import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { END, START, StateGraph } from "@langchain/langgraph";
import { AGENT_SPECS } from "../agents/index.js";
import type { GraphDeps } from "./deps.js";
import { createFinishNode } from "./nodes/finish.js";
import { createPlannerNode } from "./nodes/planner/index.js";
import { createSubAgentNode } from "./nodes/sub-agent.js";
import { PLANNER_ROUTES, routeFromPlanner } from "./routing.js";
import { WorkspaceState } from "./state.js";

/**
 * planner → (researcher | coder | reviewer) → planner … → finish.
 * Every sub-agent reports back to the planner, which alone decides what happens next.
 */
export function buildGraph(deps: GraphDeps) {
  return new StateGraph(WorkspaceState)
    .addNode("planner", createPlannerNode(deps))
    .addNode("researcher", createSubAgentNode(AGENT_SPECS.researcher, deps))
    .addNode("coder", createSubAgentNode(AGENT_SPECS.coder, deps))
    .addNode("reviewer", createSubAgentNode(AGENT_SPECS.reviewer, deps))
    .addNode("finish", createFinishNode(deps))
    .addEdge(START, "planner")
    .addConditionalEdges("planner", routeFromPlanner, [...PLANNER_ROUTES])
    .addEdge("researcher", "planner")
    .addEdge("coder", "planner")
    .addEdge("reviewer", "planner")
    .addEdge("finish", END);
}

export function compileGraph(deps: GraphDeps, checkpointer?: BaseCheckpointSaver) {
  return buildGraph(deps).compile({ checkpointer, name: "mini-cursor" });
}

export type MiniCursorGraph = ReturnType<typeof compileGraph>;
