import type { SafetyPolicy } from "../core/index.js";
import type { WebSettings } from "../config/index.js";
import { hasSkills, type ToolDeps } from "../tools/index.js";
import type { AgentSpec } from "./types.js";

const CHANGING_TOOLS = new Set(["write_file", "edit_file", "execute_command", "start_process"]);
const PROCESS_TOOLS = new Set(["start_process", "read_process_output", "wait_for_process", "stop_process", "list_processes"]);

/** What a session has that some tools need; a tool whose service is missing is not offered. */
export interface ToolAvailability {
  memory: boolean;
  skills?: boolean;
  web?: Pick<WebSettings, "enabled" | "search">;
  /** The session's diagnostics hub (project_diagnostics). */
  diagnostics?: boolean;
  /** Background processes: the session's registry (src/host), or each thread's (src/studio). */
  processes?: boolean;
  /** The session's codebase index (src/retrieval; codebase_search). */
  codeIndex?: boolean;
}

/** The availability a run's tool services give, in one place for the three places that offer tools. */
export function toolAvailability(tools: Partial<Pick<ToolDeps, "skills" | "web" | "diagnostics" | "processes" | "codeIndex">> | undefined, memory: boolean, workspace: string): ToolAvailability {
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
