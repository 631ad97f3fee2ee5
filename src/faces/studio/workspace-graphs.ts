import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { customAgentSpec, loadCustomAgents } from "../../agents/index.js";
import { compileGraph, type MiniCursorGraph } from "../../graph/build-graph.js";
import type { GraphDeps } from "../../graph/deps.js";
import { logger } from "../../platform/logger.js";

/** Distinct sets of agent files kept compiled; a server rarely sees more workspaces than this. */
const MAX_GRAPHS = 16;

/**
 * The session graph for each run's workspace, as the LangGraph server asks for it (a graph factory: langgraph.json
 * names this function). Custom agents are nodes of the graph, so a workspace with agent files
 * (`.mini-cursor/agents/`, `.claude/agents/`, and the user's) gets a graph with them mounted; graphs are compiled once
 * per distinct set of agent files and reused. Requests without a workspace (the assistant's drawing, its schemas)
 * get the graph with the user's agents only. A bad agent file is logged once, and the run goes on without it.
 */
export function graphPerWorkspace(deps: GraphDeps, env: NodeJS.ProcessEnv): (config?: LangGraphRunnableConfig) => MiniCursorGraph {
  const compiled = new Map<string, MiniCursorGraph>();
  return (config) => {
    const workspace = config?.configurable?.workspace;
    const { agents, problems } = loadCustomAgents(typeof workspace === "string" && workspace ? workspace : undefined, env);
    const key = JSON.stringify(agents);
    const known = compiled.get(key);
    if (known) return known;
    for (const problem of problems) logger.warn(problem);
    const graph = compileGraph(deps, undefined, agents.map(customAgentSpec));
    if (compiled.size >= MAX_GRAPHS) compiled.delete(compiled.keys().next().value ?? "");
    compiled.set(key, graph);
    return graph;
  };
}
