import type { StructuredToolInterface } from "@langchain/core/tools";
import type { MemoryStore } from "../memory/types.js";
import type { CodebaseSearch } from "../memory/retrieval/session-index.js";
import type { CommandRun, ProgressEvent } from "../core/index.js";
import type { CommandSandbox } from "../safety/sandbox/types.js";
import type { Clock } from "../platform/clock.js";
import type { WebSettings } from "../platform/config/web-settings.js";
import type { SkillLibrary } from "../services/skills/types.js";
import type { Diagnostics } from "../services/diagnostics/diagnostics-hub.js";
import type { ProcessesSource } from "../services/processes/processes-source.js";
import type { EditorFiles } from "../services/workspace-files/editor-files.js";

/**
 * What every tool factory receives. `root` is the workspace's real path (symlinks resolved);
 * all path arguments are confined to it.
 */
export interface ToolDeps {
  root: string;
  /** Live progress, e.g. command output as it streams. */
  emit?: (event: ProgressEvent) => void;
  /** execute_command defaults; the model may ask for less or more time within maxTimeoutMs. */
  commandTimeoutMs?: number;
  maxCommandTimeoutMs?: number;
  /** Characters of command output or file content returned to the model before head/tail truncation. */
  outputLimitChars?: number;
  /** Long-term memory for memory_search; the tool is only offered when it is enabled. */
  memory?: MemoryStore;
  /** Where execute_command runs commands: a bubblewrap sandbox, or (absent or `none`) process-tree confinement only. */
  sandbox?: CommandSandbox;
  /** fetch_url and web_search settings (src/platform/config/web-settings.ts); absent: both are off. */
  web?: WebSettings;
  /** Paces live output snapshots; the system clock when absent. */
  clock?: Clock;
  /** The codebase index for codebase_search; the tool is only offered when it is present. */
  codeIndex?: CodebaseSearch;
  /** Skills for load_skill and read_file's `skill://` paths; the tool is only offered when the workspace has some. */
  skills?: SkillLibrary;
  /** Problems reported after write_file and edit_file, and project_diagnostics; absent: neither. */
  diagnostics?: Diagnostics;
  /** The background processes (start_process and friends): the session's, or its run's; absent: those tools say they are unavailable. */
  processes?: ProcessesSource;
  /** The editor's buffers (an ACP client's fs methods): read_file and edit_file read them, write_file and edit_file write through them; absent: the disk. */
  editor?: EditorFiles;
}

/**
 * What one tool factory takes: the workspace and the services it names, no more (`ToolNeeds<"memory">` for
 * memory_search). The agents hand every factory the same ToolDeps; the type says which part each one uses.
 */
export type ToolNeeds<K extends keyof ToolDeps> = Pick<ToolDeps, "root" | K>;

/** The part of a tool's deps a run's context rescopes (src/tools/tool-scope.ts). */
export type ScopedDeps = Pick<ToolDeps, "root" | "outputLimitChars" | "sandbox">;

/** What happened, for the harness (not the model): files touched and commands run. */
export interface ToolArtifact {
  ok: boolean;
  filesChanged?: string[];
  command?: CommandRun & { durationMs: number };
}

export type WorkspaceTool = StructuredToolInterface;
