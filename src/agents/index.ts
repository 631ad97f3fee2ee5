import type { BuiltinAgentName } from "../core/index.js";
import { coderSpec } from "./coder/index.js";
import type { CustomAgentSpec } from "./custom/index.js";
import { researcherSpec } from "./researcher/index.js";
import { reviewerSpec } from "./reviewer/index.js";
import type { AgentSpec } from "./types.js";

export const AGENT_SPECS: Record<BuiltinAgentName, AgentSpec> = {
  researcher: researcherSpec,
  coder: coderSpec,
  reviewer: reviewerSpec,
};

/** A session's agents: the built-in ones, then the custom ones loaded from agent files (src/agents/custom). */
export function sessionAgents(custom: readonly CustomAgentSpec[] = []): AgentSpec[] {
  return [...Object.values(AGENT_SPECS), ...custom];
}

export { customAgentSpec, loadCustomAgents, type CustomAgentSpec, type CustomAgentDefinition } from "./custom/index.js";
