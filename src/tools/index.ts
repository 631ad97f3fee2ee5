import { createCodebaseSearchTool } from "./codebase-search.js";
import { createEditFileTool } from "./edit-file.js";
import { createExecuteCommandTool } from "./execute-command.js";
import { createListDirectoryTool } from "./list-directory.js";
import { createLoadSkillTool } from "./load-skill.js";
import { createMemorySearchTool } from "./memory-search.js";
import { createReadFileTool } from "./read-file.js";
import { createSearchCodeTool } from "./search-code.js";
import type { ToolDeps, WorkspaceTool } from "./types.js";
import { createWriteFileTool } from "./write-file.js";
import { createFetchUrlTool } from "./fetch-url.js";
import { createWebSearchTool } from "./web-search.js";
import { createProjectDiagnosticsTool } from "./project-diagnostics.js";
import { createStartProcessTool } from "./start-process.js";
import { createListProcessesTool, createReadProcessOutputTool, createStopProcessTool, createWaitForProcessTool } from "./process-tools.js";

export { createCodebaseSearchTool } from "./codebase-search.js";
export { createEditFileTool } from "./edit-file.js";
export { createExecuteCommandTool, DEFAULT_COMMAND_TIMEOUT_MS, MAX_COMMAND_TIMEOUT_MS } from "./execute-command.js";
export type { ExecuteCommandOptions } from "./execute-command.js";
export { createListDirectoryTool } from "./list-directory.js";
export { createLoadSkillTool } from "./load-skill.js";
export { createSkillLibrary, hasSkills, type SkillLibrary, type Skill } from "../services/skills/index.js";
export { createMemorySearchTool } from "./memory-search.js";
export { createReadFileTool, DEFAULT_OUTPUT_LIMIT_CHARS } from "./read-file.js";
export { createSearchCodeTool } from "./search-code.js";
export { createWriteFileTool } from "./write-file.js";
export { buildCommandEnv, isSecretEnvName } from "../services/commands/command-env.js";
export { killActiveCommands, activeCommandCount } from "../services/commands/active-commands.js";
export { resolveWorkspacePath, toDisplayPath, type WorkspacePath } from "../services/workspace-files/workspace-path.js";
export type { ToolDeps, ToolArtifact, WorkspaceTool } from "./types.js";
export { createDiagnosticsHub, type Diagnostics } from "../services/diagnostics/index.js";
export { createProjectDiagnosticsTool } from "./project-diagnostics.js";
export { BackgroundProcesses, type ProcessSummary } from "../services/processes/background-processes.js";
export { processesFor, type ProcessesSource } from "../services/processes/processes-source.js";

/** Every workspace tool by the name the model calls it. */
export const TOOL_FACTORIES = {
  read_file: createReadFileTool,
  list_directory: createListDirectoryTool,
  search_code: createSearchCodeTool,
  codebase_search: createCodebaseSearchTool,
  write_file: createWriteFileTool,
  edit_file: createEditFileTool,
  execute_command: createExecuteCommandTool,
  memory_search: createMemorySearchTool,
  fetch_url: (deps: ToolDeps) => createFetchUrlTool(deps),
  web_search: createWebSearchTool,
  load_skill: createLoadSkillTool,
  project_diagnostics: createProjectDiagnosticsTool,
  start_process: createStartProcessTool,
  read_process_output: createReadProcessOutputTool,
  wait_for_process: createWaitForProcessTool,
  stop_process: createStopProcessTool,
  list_processes: createListProcessesTool,
} as const satisfies Record<string, (deps: ToolDeps) => WorkspaceTool>;

export type ToolName = keyof typeof TOOL_FACTORIES;

export const TOOL_NAMES = Object.keys(TOOL_FACTORIES) as ToolName[];

/**
 * What each tool does beyond reading, in one place: the approvals (which calls get a decision), read-only mode (which
 * tools are not offered) and custom agents (which can edit) derive their lists from it.
 */
export const TOOL_EFFECTS = {
  read_file: "reads",
  list_directory: "reads",
  search_code: "reads",
  codebase_search: "reads",
  memory_search: "reads",
  fetch_url: "reads",
  web_search: "reads",
  load_skill: "reads",
  project_diagnostics: "reads",
  write_file: "changes_files",
  edit_file: "changes_files",
  execute_command: "runs_commands",
  start_process: "runs_commands",
  read_process_output: "manages_processes",
  wait_for_process: "manages_processes",
  stop_process: "manages_processes",
  list_processes: "manages_processes",
} as const satisfies Record<ToolName, "reads" | "changes_files" | "runs_commands" | "manages_processes">;

function toolsThat(effect: (typeof TOOL_EFFECTS)[ToolName]): ReadonlySet<string> {
  return new Set(TOOL_NAMES.filter((name) => TOOL_EFFECTS[name] === effect));
}

/** Tools that write or edit files. */
export const FILE_CHANGE_TOOLS = toolsThat("changes_files");
/** Tools that run a shell command (start_process starts one in the background): the same rules and approvals. */
export const COMMAND_TOOLS = toolsThat("runs_commands");

/** Tools that never change the workspace (for the researcher and reviewer). */
export const READ_TOOLS = ["read_file", "list_directory", "search_code"] as const satisfies readonly ToolName[];

/** The background-process tools (src/tools/start-process.ts, process-tools.ts), for the agents that run commands. */
export const PROCESS_TOOLS = [
  "start_process",
  "read_process_output",
  "wait_for_process",
  "stop_process",
  "list_processes",
] as const satisfies readonly ToolName[];

/** Builds the named tools (all of them by default) for one workspace. */
export function createWorkspaceTools(deps: ToolDeps, names: readonly ToolName[] = TOOL_NAMES): WorkspaceTool[] {
  return names.map((name) => TOOL_FACTORIES[name](deps));
}
