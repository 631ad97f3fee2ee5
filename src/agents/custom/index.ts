export { agentFolders, loadCustomAgents, parseAgentFile, type AgentFolder, type LoadedAgents } from "./load.js";
export { customAgentSpec, SUBMIT_RESULT_TOOL, type CustomAgentSpec } from "./spec.js";
export type { AgentSource, CustomAgentDefinition } from "./definition.js";
export { AgentFileError } from "./frontmatter.js";
