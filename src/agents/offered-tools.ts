import type { SafetyPolicy } from "../core/index.js";
import type { WebSettings } from "../config/index.js";
import type { AgentSpec } from "./types.js";

const CHANGING_TOOLS = new Set(["write_file", "edit_file", "execute_command", "start_process"]);
const PROCESS_TOOLS = new Set(["start_process", "read_process_output", "wait_for_process", "stop_process", "list_processes"]);

/**
 * The tools a run offers: memory_search only while memory is on, load_skill only when the workspace has skills,
 * fetch_url and web_search only while the web is on (web_search with a provider), the background-process tools only
 * where the session keeps a registry of them (src/host; not in Studio); read-only mode offers no way to change anything.
 */
export function offeredTools(
  spec: AgentSpec,
  safety: Pick<SafetyPolicy, "approval">,
  memoryEnabled: boolean,
  skillsAvailable = false,
  web?: Pick<WebSettings, "enabled" | "search">,
  processesAvailable = false,
): string[] {
  return spec.tools.filter(
    (name) =>
      (name !== "memory_search" || memoryEnabled) &&
      (name !== "load_skill" || skillsAvailable) &&
      // fetch_url while the web is on, web_search only with a search provider too.
      ((name !== "fetch_url" && name !== "web_search") || (web?.enabled === true && (name === "fetch_url" || web.search !== undefined))) &&
      (processesAvailable || !PROCESS_TOOLS.has(name)) &&
      // Read-only mode starts no process, so the tools that handle one are left out with start_process.
      (safety.approval !== "read-only" || (!CHANGING_TOOLS.has(name) && !PROCESS_TOOLS.has(name))),
  );
}
