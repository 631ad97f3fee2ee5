import { type ClientTool, type StructuredToolInterface, tool } from "@langchain/core/tools";
import { hasSkills, type Skill, TOOL_FACTORIES, type ToolDeps } from "../tools/index.js";
import type { AgentDeps } from "./middleware/deps.js";
import type { FinishToolSpec } from "./types.js";
import { isBuiltinAgentName, type SafetyPolicy } from "../core/index.js";
import type { WebSettings } from "../platform/config/index.js";
import type { AgentSpec } from "./types.js";
import type { JsonSchema7ObjectType } from "@langchain/core/utils/json_schema";
// Not ../services/mcp/index.js: that loads the MCP SDK, which only a session with servers needs (src/services/mcp/lazy-hub.ts).
import { matchesToolPattern } from "../services/mcp/names.js";
import type { ExtensionTool, ExtensionTools } from "../services/mcp/types.js";
import { COMMAND_TOOLS, FILE_CHANGE_TOOLS, PROCESS_TOOLS as PROCESS_TOOL_NAMES } from "../tools/index.js";

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
  return [
    ...spec.tools.map((name) => TOOL_FACTORIES[name]({ ...deps.tools, ...(sandbox ? { sandbox } : {}), root: "", emit: deps.emit, memory: deps.memory })),
    createFinishTool(spec.finishTool),
  ];
}

/** The sentence of an agent's instructions that says whether its commands have the network (bubblewrap only). */
export function networkLine(deps: Pick<AgentDeps, "tools">, tools: readonly string[], allowNetwork: boolean): string {
  if (deps.tools?.sandbox?.kind !== "bubblewrap" || !tools.some((t) => t === "execute_command" || t === "start_process")) return "";
  return allowNetwork
    ? "Commands have network access in this session."
    : "Commands have no network access in this session (only a private loopback): do not try to install or download.";
}

/** Not offered in read-only mode: what changes files, runs commands or manages the processes they start. */
const CHANGING_TOOLS: ReadonlySet<string> = new Set([...FILE_CHANGE_TOOLS, ...COMMAND_TOOLS]);
const PROCESS_TOOLS: ReadonlySet<string> = new Set(PROCESS_TOOL_NAMES);

/** What a session has that some tools need; a tool whose service is missing is not offered. */
export interface ToolAvailability {
  memory: boolean;
  skills?: boolean;
  web?: Pick<WebSettings, "enabled" | "search">;
  /** The session's diagnostics hub (project_diagnostics). */
  diagnostics?: boolean;
  /** Background processes: the session's registry (src/host), or each thread's (src/faces/studio). */
  processes?: boolean;
  /** The session's codebase index (src/memory/retrieval; codebase_search). */
  codeIndex?: boolean;
}

/** The availability a run's tool services give, in one place for the three places that offer tools. */
export function toolAvailability(
  tools: Partial<Pick<ToolDeps, "skills" | "web" | "diagnostics" | "processes" | "codeIndex">> | undefined,
  memory: boolean,
  workspace: string,
): ToolAvailability {
  return {
    memory,
    skills: hasSkills(tools?.skills, workspace),
    ...(tools?.web ? { web: tools.web } : {}),
    diagnostics: tools?.diagnostics !== undefined,
    processes: tools?.processes !== undefined,
    codeIndex: tools?.codeIndex !== undefined,
  };
}

/**
 * The tools a run offers: memory_search only while memory is on, codebase_search only when the session has an index,
 * load_skill only when the workspace has skills,
 * fetch_url and web_search only while the web is on (web_search with a provider), project_diagnostics only when the
 * session has diagnostics, the background-process tools only where the session keeps a registry of them; read-only
 * mode offers no way to change anything.
 */
export function offeredTools(spec: AgentSpec, safety: Pick<SafetyPolicy, "approval">, available: ToolAvailability): string[] {
  const { web } = available;
  return spec.tools.filter(
    (name) =>
      (name !== "memory_search" || available.memory) &&
      (name !== "codebase_search" || available.codeIndex === true) &&
      (name !== "load_skill" || available.skills === true) &&
      (name !== "project_diagnostics" || available.diagnostics === true) &&
      // fetch_url while the web is on, web_search only with a search provider too.
      ((name !== "fetch_url" && name !== "web_search") || (web?.enabled === true && (name === "fetch_url" || web.search !== undefined))) &&
      (available.processes === true || !PROCESS_TOOLS.has(name)) &&
      // Read-only mode starts no process, so the tools that handle one are left out with start_process.
      (safety.approval !== "read-only" || (!CHANGING_TOOLS.has(name) && !PROCESS_TOOLS.has(name))),
  );
}

/**
 * Which MCP tools an agent has: a custom agent exactly those its spec lists (names or `mcp__server__*` globs); a
 * server with an `agents` list only those agents; else read-only tools every agent, the others the coder alone.
 */
export function agentHasTool(spec: Pick<AgentSpec, "name" | "extraTools">, t: ExtensionTool): boolean {
  // The built-in agents get the default split; a custom agent exactly the MCP tools it lists.
  if (!isBuiltinAgentName(spec.name)) return (spec.extraTools ?? []).some((p) => matchesToolPattern(t.name, p));
  if (t.agents) return t.agents.includes(spec.name);
  return t.readOnly || spec.name === "coder";
}

/** The MCP tools a run in `workspace` offers: read-only mode offers only those annotated read-only. */
export function offeredExtensionTools(
  spec: Pick<AgentSpec, "name" | "extraTools">,
  safety: Pick<SafetyPolicy, "approval">,
  extensions: ExtensionTools | undefined,
  workspace: string,
): ExtensionTool[] {
  if (!extensions) return [];
  return extensions.list(workspace).filter((t) => agentHasTool(spec, t) && (safety.approval !== "read-only" || t.readOnly));
}

const EXTENSION_WAIT_MS = 10_000;

/** The workspace's servers have started, or 10 s went by (a slower server's tools come later): whichever is first. */
export async function extensionsReady(extensions: ExtensionTools | undefined, workspace: string): Promise<void> {
  if (!extensions) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXTENSION_WAIT_MS)));
  await Promise.race([extensions.ready(workspace), waited]);
  clearTimeout(timer);
}

const definitions = new Map<string, StructuredToolInterface>();

/**
 * The definition the model sees (its JSON Schema as the server gave it). Calls never reach this function:
 * toolCallsMiddleware runs them through the extension tools.
 */
export function extensionToolDefinition(t: ExtensionTool): StructuredToolInterface {
  const key = `${t.name}\0${t.description}\0${JSON.stringify(t.inputSchema)}`;
  let made = definitions.get(key);
  if (!made) {
    // The server's schema as it is; only `type: "object"` is made sure of (some servers leave it out).
    const schema = { properties: {}, ...t.inputSchema, type: "object" } as JsonSchema7ObjectType;
    made = tool(() => Promise.reject(new Error(`${t.name} runs through the session's MCP servers`)), { name: t.name, description: t.description, schema });
    if (definitions.size > 512) definitions.clear();
    definitions.set(key, made);
  }
  return made;
}

/** More than this many skills are named without their descriptions: the list goes into every brief. */
const DESCRIBED_SKILLS = 40;

/**
 * The skills an agent may load, for its brief: names and descriptions only (a skill's body costs tokens only once
 * load_skill returns it). Empty when there are none. Custom agents' briefs call this too.
 */
export function renderSkillList(skills: readonly Pick<Skill, "name" | "description">[]): string[] {
  if (skills.length === 0) return [];
  const lines = ["", "Skills (instructions for particular kinds of work; when one fits your step, call load_skill with its name before you start):"];
  for (const s of skills.slice(0, DESCRIBED_SKILLS)) lines.push(`- ${s.name}: ${s.description.replace(/\s+/g, " ")}`);
  const rest = skills.slice(DESCRIBED_SKILLS);
  if (rest.length > 0) lines.push(`- also: ${rest.map((s) => s.name).join(", ")}`);
  return lines;
}

/** The structured "finish" tool: calling it with valid arguments ends the run (returnDirect); they become the report. */
export function createFinishTool(spec: FinishToolSpec): StructuredToolInterface {
  return tool(async () => "Recorded. Your run is complete.", { name: spec.name, description: spec.description, schema: spec.schema, returnDirect: true });
}
