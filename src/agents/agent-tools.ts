import type { ClientTool, ServerTool } from "@langchain/core/tools";
import { TOOL_FACTORIES } from "../tools/index.js";
import type { AgentDeps } from "./middleware/deps.js";
import { createFinishTool } from "./middleware/tool-calls.js";

/** The tools whose description tells the model whether commands have the network. */
const NETWORK_DESCRIBED = new Set(["execute_command", "start_process"]);

export interface AgentTools {
  /** Every tool of the agent, built once: LangChain's tool node runs them; each call reads its run from the runtime. */
  tools: ClientTool[];
  /** The same tool as the model should see it in a run with this network setting (only its description differs). */
  asDescribed<T extends ClientTool | ServerTool>(tool: T, allowNetwork: boolean): T | ClientTool;
}

/**
 * Builds an agent's tools once, from the session's deps: the workspace, output cap and network of each call come from
 * the run's runtime context (src/tools/tool-scope.ts), and the agent's own command access (the reviewer's read-only
 * workspace) is fixed here. The command tools are also built with the network on, for their description only.
 */
export function buildAgentTools(deps: Pick<AgentDeps, "spec" | "tools" | "emit" | "memory">): AgentTools {
  const { spec } = deps;
  const configured = deps.tools?.sandbox;
  const sandboxWith = (allowNetwork: boolean) => (configured?.kind === "bubblewrap" ? { ...configured, allowNetwork, workspaceAccess: spec.commandAccess } : configured);
  const make = (name: (typeof spec.tools)[number], allowNetwork: boolean): ClientTool => {
    const sandbox = sandboxWith(allowNetwork);
    return TOOL_FACTORIES[name]({ ...deps.tools, ...(sandbox ? { sandbox } : {}), root: "", emit: deps.emit, memory: deps.memory });
  };
  const tools = [...spec.tools.map((name) => make(name, false)), createFinishTool(spec.finishTool)];
  const online = new Map(spec.tools.filter((name) => NETWORK_DESCRIBED.has(name) && configured?.kind === "bubblewrap").map((name) => [name, make(name, true)] as const));
  return {
    tools,
    asDescribed: (tool, allowNetwork) => (allowNetwork && typeof tool.name === "string" ? (online.get(tool.name as (typeof spec.tools)[number]) ?? tool) : tool),
  };
}
