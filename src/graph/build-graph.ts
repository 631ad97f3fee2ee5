import { type BaseCheckpointSaver, END, START, StateGraph } from "@langchain/langgraph";
import { AGENT_SPECS } from "../agents/index.js";
import { buildAgent } from "../agents/build-agent.js";
import type { AgentSpec } from "../agents/types.js";
import { DEFAULT_PRICE_TABLE } from "../cost/prices.js";
import { DEFAULT_CALL_TIMEOUT_MS, type GraphDeps } from "./deps.js";
import { createFinishNode } from "./nodes/finish.js";
import { createPlannerNode } from "./nodes/planner/index.js";
import { createSubAgentNode } from "./nodes/sub-agent.js";
import { PLANNER_ROUTES, routeFromPlanner } from "./routing.js";
import { WorkspaceState } from "./state.js";

/**
 * planner → (researcher | coder | reviewer) → planner … → finish.
 * Every sub-agent is compiled once and mounted as a subgraph (Studio and `getGraph({ xray: true })` show its inner
 * nodes); it reports back to the planner, which alone decides what happens next.
 */
export function buildGraph(deps: GraphDeps) {
  const emit = deps.events.emit.bind(deps.events);
  const mount = (spec: AgentSpec) => {
    const agent = buildAgent({
      spec,
      models: deps.models,
      emit,
      memory: deps.memory,
      tools: deps.tools,
      forceAsk: deps.forceAsk ?? false,
      prices: deps.prices ?? DEFAULT_PRICE_TABLE,
      callTimeoutMs: deps.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    });
    return { node: createSubAgentNode(spec, agent, deps), options: { subgraphs: [agent] } };
  };
  const researcher = mount(AGENT_SPECS.researcher);
  const coder = mount(AGENT_SPECS.coder);
  const reviewer = mount(AGENT_SPECS.reviewer);
  return new StateGraph(WorkspaceState)
    .addNode("planner", createPlannerNode(deps))
    .addNode("researcher", researcher.node, researcher.options)
    .addNode("coder", coder.node, coder.options)
    .addNode("reviewer", reviewer.node, reviewer.options)
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
