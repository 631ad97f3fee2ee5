import type { ToolName } from "../../tools/index.js";

/** Where agent files are read from, most important first (a name defined earlier wins). */
export type AgentSource = "workspace" | "workspace-claude" | "user" | "user-claude";

/** One valid agent file. */
export interface CustomAgentDefinition {
  name: string;
  description: string;
  tools: ToolName[];
  /** MCP tools it lists (`mcp__server__tool` or `mcp__server__*`), resolved per session. */
  extraTools: string[];
  /** The model for this agent's calls; absent: the session's model. */
  model?: string;
  /** The file's body. */
  prompt: string;
  /** The file's absolute path. */
  file: string;
  /** The path as people read it: relative to the workspace for workspace files, else absolute. */
  displayPath: string;
  source: AgentSource;
}
