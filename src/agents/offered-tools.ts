import type { SafetyPolicy } from "../core/index.js";
import type { WebSettings } from "../config/index.js";
import type { AgentSpec } from "./types.js";

const CHANGING_TOOLS = new Set(["write_file", "edit_file", "execute_command"]);

/**
 * The tools a run offers: memory_search only while memory is on, codebase_search only when the session has an index, load_skill only when the workspace has skills,
 * fetch_url and web_search only while the web is on (web_search with a provider);
 * read-only mode offers no way to change anything.
 */
export function offeredTools(
  spec: AgentSpec,
  safety: Pick<SafetyPolicy, "approval">,
  memoryEnabled: boolean,
  skillsAvailable = false,
  web?: Pick<WebSettings, "enabled" | "search">,
  codeIndexAvailable = false,
): string[] {
  return spec.tools.filter(
    (name) =>
      (name !== "memory_search" || memoryEnabled) &&
      (name !== "codebase_search" || codeIndexAvailable) &&
      (name !== "load_skill" || skillsAvailable) &&
      // fetch_url while the web is on, web_search only with a search provider too.
      ((name !== "fetch_url" && name !== "web_search") || (web?.enabled === true && (name === "fetch_url" || web.search !== undefined))) &&
      (safety.approval !== "read-only" || !CHANGING_TOOLS.has(name)),
  );
}
