import type { ClientTool } from "@langchain/core/tools";
import { TOOL_FACTORIES } from "../tools/index.js";
import type { AgentDeps } from "./middleware/deps.js";
import { createFinishTool } from "./middleware/tool-calls.js";

/**
 * Builds an agent's tools once, from the session's deps: LangChain's tool node runs them, and each call reads its
 * run's workspace, output cap and network from the runtime context (src/tools/tool-scope.ts). The agent's own command
 * access (the reviewer's read-only workspace) is fixed here; the network is each run's, so the command tools leave it
 * out of their description and the agent's instructions say it (src/graph/nodes/sub-agent.ts: networkLine).
 */
export function buildAgentTools(deps: Pick<AgentDeps, "spec" | "tools" | "emit" | "memory">): ClientTool[] {
  const { spec } = deps;
  const configured = deps.tools?.sandbox;
  const sandbox = configured?.kind === "bubblewrap" ? { ...configured, workspaceAccess: spec.commandAccess, networkFromRun: true } : configured;
  return [...spec.tools.map((name) => TOOL_FACTORIES[name]({ ...deps.tools, ...(sandbox ? { sandbox } : {}), root: "", emit: deps.emit, memory: deps.memory })), createFinishTool(spec.finishTool)];
}

/** The sentence of an agent's instructions that says whether its commands have the network (bubblewrap only). */
export function networkLine(deps: Pick<AgentDeps, "tools">, tools: readonly string[], allowNetwork: boolean): string {
  if (deps.tools?.sandbox?.kind !== "bubblewrap" || !tools.some((t) => t === "execute_command" || t === "start_process")) return "";
  return allowNetwork ? "Commands have network access in this session." : "Commands have no network access in this session (only a private loopback): do not try to install or download.";
}
