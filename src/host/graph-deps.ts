import os from "node:os";
import { resolveSandboxConfig, type ModelSettings, type WebSettings } from "../platform/config/index.js";
import type { PriceTable } from "../models/cost/prices.js";
import type { GraphDeps, RunSettings } from "../graph/deps.js";
import type { Elicit, ExtensionTools } from "../services/mcp/index.js";
import type { MemoryStore } from "../memory/types.js";
import type { CodebaseSearch } from "../memory/retrieval/session-index.js";
import type { ModelProvider } from "../models/chat-model.js";
import type { EventSink } from "../core/index.js";
import { selectSandbox } from "../safety/sandbox/select.js";
import type { CommandSandbox, SandboxStatus } from "../safety/sandbox/types.js";
import type { Diagnostics, ProcessesSource, SkillLibrary } from "../tools/index.js";
import type { EditorFiles } from "../services/workspace-files/editor-files.js";

export interface WiringInput {
  /** The models: from resolved settings (CLI), resolved per run (Studio), or scripted (tests). */
  models: ModelProvider;
  /** Bounds one model call including retries; absent for scripted models. */
  modelSettings?: Pick<ModelSettings, "timeoutMs" | "maxRetries">;
  prices: PriceTable;
  events: EventSink;
  memory: MemoryStore;
  /** What selectSandbox found: commands run in bubblewrap, or (without it) every command needs approval. */
  sandbox: SandboxStatus;
  commandTimeoutMs?: number;
  beforeStep?: () => Promise<void>;
  afterStep?: GraphDeps["afterStep"];
  /** Settings a run takes from its own configuration (Studio), when its input does not set them. */
  runSettings?: RunSettings;
  /** The session's MCP servers' tools (src/services/mcp). */
  extensions?: ExtensionTools;
  /** Skills (src/services/skills): listed in the agents' briefs and loaded on demand. */
  skills?: SkillLibrary;
  /** fetch_url and web_search (src/platform/config/web-settings.ts); absent: both are off. */
  web?: WebSettings;
  /** Problems after write_file/edit_file and the reviewer's project_diagnostics (src/services/diagnostics); absent: neither. */
  diagnostics?: Diagnostics;
  /** The background processes (start_process and friends): the session's, or each run's (Studio); absent: not offered. */
  processes?: ProcessesSource;
  /** The codebase index for codebase_search and the planner's brief (src/memory/retrieval); absent: no index. */
  codeIndex?: CodebaseSearch;
  /** Asks the person what an MCP server asks during a call (src/host/elicit-person.ts); absent: declined. */
  elicit?: Elicit | "interrupt";
  /** The editor's buffers (ACP): the file tools read and write through them; absent, the disk. */
  editor?: EditorFiles;
  /** Studio and the Agent Server: each step holds the workspace lock (the CLI holds it for the whole session). */
  holdWorkspace?: GraphDeps["holdWorkspace"];
}

/**
 * The sandbox every face's commands run in, chosen here only: bubblewrap when it really works (probed), unless
 * MINI_CURSOR_SANDBOX=off. `mini-cursor doctor` reports the same choice.
 */
export function chooseSandbox(env: NodeJS.ProcessEnv): Promise<SandboxStatus> {
  return selectSandbox(resolveSandboxConfig(env), env.HOME || os.homedir());
}

/** How commands (tools, the project's checkers) are confined under that choice: no network by default. */
export function commandSandbox(status: SandboxStatus): CommandSandbox {
  return status.kind === "bubblewrap" ? { kind: "bubblewrap", allowNetwork: false } : { kind: "none" };
}

/**
 * The one wiring of the session graph's dependencies, for the CLI, Studio, benchmarks and tests alike: the same
 * sandbox choice (and "ask" forced without one), call deadline, prices and memory. (The session's budget travels
 * with each run, in its configurable settings: src/models/cost/budget.ts budgetOf.)
 */
export function wireGraphDeps(o: WiringInput): GraphDeps {
  const sandboxed = o.sandbox.kind === "bubblewrap";
  return {
    models: o.models,
    events: o.events,
    memory: o.memory,
    tools: {
      ...(o.commandTimeoutMs !== undefined ? { commandTimeoutMs: o.commandTimeoutMs } : {}),
      sandbox: commandSandbox(o.sandbox),
      ...(o.skills ? { skills: o.skills } : {}),
      ...(o.web ? { web: o.web } : {}),
      ...(o.diagnostics ? { diagnostics: o.diagnostics } : {}),
      ...(o.processes ? { processes: o.processes } : {}),
      ...(o.codeIndex ? { codeIndex: o.codeIndex } : {}),
      ...(o.editor ? { editor: o.editor } : {}),
    },
    forceAsk: !sandboxed,
    ...(o.modelSettings ? { callTimeoutMs: o.modelSettings.timeoutMs * (o.modelSettings.maxRetries + 1) + 5_000 } : {}),
    prices: o.prices,
    ...(o.beforeStep ? { beforeStep: o.beforeStep } : {}),
    ...(o.afterStep ? { afterStep: o.afterStep } : {}),
    ...(o.runSettings ? { runSettings: o.runSettings } : {}),
    ...(o.extensions ? { extensions: o.extensions } : {}),
    ...(o.elicit ? { elicit: o.elicit } : {}),
    ...(o.holdWorkspace ? { holdWorkspace: o.holdWorkspace } : {}),
  };
}
