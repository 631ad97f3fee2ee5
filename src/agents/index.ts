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

/** What each built-in agent is for, as `mini-cursor agents` shows it (the planner's prompt says the same). */
export const BUILTIN_AGENT_DESCRIPTIONS: Record<BuiltinAgentName, string> = {
  researcher: "Reads the project (files, search) and reports findings with their sources.",
  coder: "Edits files and runs commands (build, tests) to make one coherent change.",
  reviewer: "Reads the changes and runs the tests and checks, then approves or requests changes.",
};

/** A session's agents: the built-in ones, then the custom ones loaded from agent files (src/agents/custom). */
export function sessionAgents(custom: readonly CustomAgentSpec[] = []): AgentSpec[] {
  return [...Object.values(AGENT_SPECS), ...custom];
}

export { customAgentSpec, loadCustomAgents, type CustomAgentSpec, type CustomAgentDefinition } from "./custom/index.js";
