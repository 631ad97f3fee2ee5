import { READ_TOOLS, TOOL_NAMES, type ToolName } from "../../tools/index.js";
import { AgentFileError } from "./frontmatter.js";

/**
 * Claude Code's tool names mapped to ours (`.claude/agents/*.md` list those). Glob finds files by pattern: our
 * closest tools are search_code and list_directory. Harness tools with no counterpart here (to-do lists, notebooks,
 * sub-agents) are dropped: they steer Claude Code itself, not the project.
 */
const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ["read_file"],
  Grep: ["search_code"],
  Glob: ["list_directory", "search_code"],
  LS: ["list_directory"],
  Edit: ["edit_file"],
  MultiEdit: ["edit_file"],
  Write: ["write_file"],
  Bash: ["execute_command"],
  WebFetch: ["fetch_url"],
  WebSearch: ["web_search"],
  Skill: ["load_skill"],
  TodoWrite: [],
  TodoRead: [],
  Task: [],
  NotebookRead: [],
  NotebookEdit: [],
  BashOutput: [],
  KillShell: [],
  KillBash: [],
  ExitPlanMode: [],
  SlashCommand: [],
};

/** An MCP tool (`mcp__server__tool`) or all of a server's tools (`mcp__server__*`): resolved per session. */
const MCP_TOOL = /^mcp__[A-Za-z0-9_-]+__(?:[A-Za-z0-9_.-]+|\*)$/;

export interface AgentTools {
  tools: ToolName[];
  /** MCP tools the agent lists (AgentSpec.extraTools). */
  extraTools: string[];
}

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** `tools` as a YAML list or a comma-separated string; absent means the read-only tools. */
export function listedTools(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string")
    return value
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((t) => typeof t === "string")) return value.map((t) => t.trim()).filter(Boolean);
  throw new AgentFileError("tools must be a list of tool names or a comma-separated string");
}

/**
 * The tools an agent file lists, as our names. A Claude Code permission pattern such as `Bash(npm test:*)` names its
 * tool first; the pattern itself is not a rule here (approval rules live in mini-cursor.json). Unknown names are an
 * error, so a typo never silently leaves an agent without a tool.
 */
export function resolveTools(listed: readonly string[] | null): AgentTools {
  if (listed === null) return { tools: [...READ_TOOLS], extraTools: [] };
  const tools = new Set<ToolName>();
  const extraTools = new Set<string>();
  const unknown: string[] = [];
  for (const raw of listed) {
    const name = raw.replace(/\(.*\)$/s, "").trim();
    if (MCP_TOOL.test(name)) {
      extraTools.add(name);
      continue;
    }
    const mapped = isToolName(name) ? [name] : CLAUDE_TOOLS[name];
    if (!mapped) {
      unknown.push(raw);
      continue;
    }
    for (const ours of mapped) {
      if (isToolName(ours)) tools.add(ours);
      // A Claude tool whose counterpart this build lacks (web tools) is left out rather than failing the file.
    }
  }
  if (unknown.length > 0) {
    const known = [...TOOL_NAMES, ...Object.keys(CLAUDE_TOOLS).filter((n) => (CLAUDE_TOOLS[n] ?? []).length > 0)];
    throw new AgentFileError(
      `unknown tool${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `"${u}"`).join(", ")} (known: ${known.join(", ")}, or mcp__<server>__<tool>)`,
    );
  }
  return { tools: [...tools], extraTools: [...extraTools] };
}
