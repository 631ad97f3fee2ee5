import type { SafetyPolicy } from "../core/index.js";
import type { AgentSpec } from "./types.js";

const CHANGING_TOOLS = new Set(["write_file", "edit_file", "execute_command"]);

/**
 * The tools a run offers: memory_search only while memory is on, load_skill only when the workspace has skills;
 * read-only mode offers no way to change anything.
 */
export function offeredTools(spec: AgentSpec, safety: Pick<SafetyPolicy, "approval">, memoryEnabled: boolean, skillsAvailable = false): string[] {
  return spec.tools.filter(
    (name) =>
      (name !== "memory_search" || memoryEnabled) && (name !== "load_skill" || skillsAvailable) && (safety.approval !== "read-only" || !CHANGING_TOOLS.has(name)),
  );
}
