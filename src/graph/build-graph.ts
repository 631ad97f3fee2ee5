import { type BaseCheckpointSaver, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { sessionAgents, type CustomAgentSpec } from "../agents/index.js";
import { buildAgent } from "../agents/build-agent.js";
import type { AgentSpec } from "../agents/types.js";
import { DEFAULT_PRICE_TABLE } from "../models/cost/prices.js";
import { DEFAULT_CALL_TIMEOUT_MS, type GraphDeps } from "./deps.js";
import { createFinishNode } from "./nodes/finish.js";
import { createPlannerNode } from "./nodes/planner/index.js";
import { createSubAgentNode } from "./nodes/sub-agent.js";
import { plannerRoutes, routeFromPlanner } from "./routing.js";
import { WorkspaceState, type WorkspaceStateUpdate, type WorkspaceStateValue } from "./state.js";
import { workspaceOf } from "../core/index.js";

/**
 * planner → (researcher | coder | reviewer | a custom agent) → planner … → finish.
 * Every sub-agent, built-in or defined in an agent file (src/agents/custom), is compiled once and mounted as its own
 * node with its subgraph (Studio and `getGraph({ xray: true })` show its inner nodes, its steps stream under its own
 * namespace); it reports back to the planner, which alone decides what happens next.
 */
export function buildGraph(deps: GraphDeps, customAgents: readonly CustomAgentSpec[] = []) {
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
      ...(deps.extensions ? { extensions: deps.extensions } : {}),
      ...(deps.elicit ? { elicit: deps.elicit } : {}),
    });
    const node = createSubAgentNode(spec, agent, deps);
    return { node: deps.holdWorkspace ? holding(node, deps.holdWorkspace) : node, options: { subgraphs: [agent] } };
  };
  const agents = sessionAgents(customAgents);
  const names = agents.map((a) => a.name);
  const plannerNode = createPlannerNode(deps, {
    names,
    custom: customAgents.map(({ name, description }) => ({ name, description })),
    editors: agents.filter((a) => a.tools.includes("edit_file") || a.tools.includes("write_file")).map((a) => a.name),
  });
  const planner = deps.holdWorkspace ? holding(plannerNode, deps.holdWorkspace) : plannerNode;
  // Node names are known only at run time: the builder is widened to string node names by the first agent's node.
  const nodeName: string = "planner";
  let graph = new StateGraph(WorkspaceState).addNode(nodeName, planner).addNode("finish", createFinishNode(deps));
  for (const spec of agents) {
    const { node, options } = mount(spec);
    graph = graph.addNode(spec.name, node, options).addEdge(spec.name, "planner");
  }
  return graph.addEdge(START, "planner").addConditionalEdges("planner", routeFromPlanner, plannerRoutes(names)).addEdge("finish", END);
}

type Node = (state: WorkspaceStateValue, config: LangGraphRunnableConfig) => Promise<WorkspaceStateUpdate>;

/** A node that runs holding the workspace's lock (GraphDeps.holdWorkspace), released when it ends or pauses. */
function holding(node: Node, hold: NonNullable<GraphDeps["holdWorkspace"]>): Node {
  return async (state, config) => {
    const configured = config.configurable?.workspace;
    const workspace = workspaceOf(config.configurable, state.workspace || (typeof configured === "string" ? configured : ""));
    const lock = workspace ? hold(workspace, config.configurable ?? {}) : undefined;
    try {
      return await node(state, config);
    } finally {
      lock?.release();
    }
  };
}

/** `customAgents`: the session's agents from agent files (src/agents/custom loadCustomAgents), loaded before this. */
export function compileGraph(deps: GraphDeps, checkpointer?: BaseCheckpointSaver, customAgents: readonly CustomAgentSpec[] = []) {
  return buildGraph(deps, customAgents).compile({ checkpointer, name: "mini-cursor" });
}

export type MiniCursorGraph = ReturnType<typeof compileGraph>;
