import os from "node:os";
import { getWriter } from "@langchain/langgraph";
import {
  flagsFromRunConfig,
  loadConfigFiles,
  needsOllama,
  ollamaUrl,
  resolveMemoryConfig,
  resolveSafetyConfig,
  resolveSandboxConfig,
  resolveWebConfig,
} from "../../platform/config/index.js";
import {
  ConfigError,
  DIAGNOSTICS_DEFAULTS,
  resolveDiagnosticsConfig,
  resolveMcpConfig,
  resolveStudioProcessIdle,
  type DiagnosticsSettings,
} from "../../platform/config/index.js";
import { McpHub, WorkspaceHubs } from "../../mcp/index.js";
import { trustedOnly, untrustedMessage } from "../../mcp/trusted.js";
import { LazyMemory } from "../../memory/lazy-memory.js";
import { openMemory } from "../../memory/open-memory.js";
import { probeOllama } from "../../models/ollama-probe.js";
import { systemClock } from "../../platform/clock.js";
import { startLauncher } from "../../platform/launcher/index.js";
import type { EventSink } from "../../core/index.js";
import { logger } from "../../platform/logger.js";
import { safetyPolicyFrom } from "../../safety/config.js";
import { selectSandbox } from "../../safety/sandbox/select.js";
import { WorkspaceLock } from "../../sessions/workspace-lock.js";
import { createDiagnosticsHub, diagnosticsPerWorkspace } from "../../tools/diagnostics/index.js";
import { ThreadProcesses } from "../../tools/processes/thread-processes.js";
import { keepFromCommands } from "../../tools/command-env.js";
import { createSkillLibrary } from "../../tools/skills/catalogue.js";
import { wireGraphDeps } from "../../host/graph-deps.js";
import { runScopedModels } from "./run-models.js";
import { runScopedPrices } from "./run-prices.js";
import { graphPerWorkspace } from "./workspace-graphs.js";

// Tools' commands, ripgrep and git are spawned by the launcher helper, not by the large server process (src/platform/launcher).
startLauncher();

/**
 * The graph as LangGraph Studio / `langgraph dev` loads it (see langgraph.json), wired like the CLI's
 * (src/host/graph-deps.ts). The server brings its own checkpointer. Each run's workspace, model and approval mode
 * come from its configurable settings (`workspace`, `model`, `baseUrl`, `apiKey`, `<role>Model`, `approval`), resolved
 * with the environment and the workspace's `mini-cursor.json` like the CLI's flags; so do its prices. Long-term memory
 * is on as in the CLI (Chroma starts on first use) and recalls this workspace's memories first.
 */
const env = process.env;

/** Progress events go to the run's custom stream (`streamMode: "custom"`). */
const customStream: EventSink = {
  emit(event) {
    try {
      getWriter()?.(event);
    } catch {
      // Outside a run context there is nobody to tell.
    }
  },
};

const sandbox = await selectSandbox(resolveSandboxConfig(env), env.HOME || os.homedir());
if (sandbox.kind !== "bubblewrap") logger.warn(`no sandbox for commands (${sandbox.reason}): every command needs approval`);
const ollama = needsOllama({}, env) ? { url: ollamaUrl(env), models: await probeOllama(ollamaUrl(env)) } : null;
const memorySettings = resolveMemoryConfig(env);
const memory = new LazyMemory(memorySettings.enabled, () => openMemory({ env, settings: memorySettings, clock: systemClock }));

/**
 * Each run's workspace gets its MCP servers (its .mcp.json, mini-cursor.json and the user config) when its first
 * sub-agent needs them; they run for the server's lifetime. A server that fails, or a file that cannot be used, is
 * logged and the runs go on without it.
 */
const mcp = new WorkspaceHubs((workspace) => {
  const onFailure = (server: { name: string }, reason: string) => logger.warn(`MCP server "${server.name}" (${workspace}) did not start: ${reason}`);
  try {
    const onStopped = (server: { name: string }, reason: string) => logger.warn(`MCP server "${server.name}" (${workspace}) stopped: ${reason}`);
    // A project's servers run only once trusted (mini-cursor mcp trust --workspace DIR, on the server's machine).
    const { servers, untrusted } = trustedOnly(resolveMcpConfig(env, workspace));
    if (untrusted.length > 0) logger.warn(`${workspace}: ${untrustedMessage(untrusted)} --workspace ${workspace}`);
    return new McpHub(servers, { onFailure, onStopped });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.warn(`MCP servers are off for ${workspace}: ${error.message}`);
    return new McpHub([]);
  }
});

/** Each workspace's `diagnostics` settings (its mini-cursor.json, the user config, the environment), as in the CLI. */
function diagnosticsSettings(workspace: string): DiagnosticsSettings {
  try {
    return resolveDiagnosticsConfig(loadConfigFiles(env, workspace), env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.warn(`diagnostics are off for ${workspace}: ${error.message}`);
    return { ...DIAGNOSTICS_DEFAULTS, enabled: false };
  }
}

/**
 * Problems after edits and the reviewer's project_diagnostics, as in the CLI. A server has no session end to stop a
 * workspace's language service at, so it stops after this long without a check (the next one starts it again).
 */
const DIAGNOSTICS_IDLE_MS = 5 * 60_000;
const diagnostics = diagnosticsPerWorkspace({
  idleMs: DIAGNOSTICS_IDLE_MS,
  hubFor: (workspace) =>
    createDiagnosticsHub({
      settings: diagnosticsSettings(workspace),
      sandbox: sandbox.kind === "bubblewrap" ? { kind: "bubblewrap", allowNetwork: false } : { kind: "none" },
      parentEnv: env,
    }),
});

// One server serves many workspaces: web settings come from the user config. The search key, whatever its variable
// is called, never reaches a command.
const web = resolveWebConfig(loadConfigFiles(env), env);
keepFromCommands(web.search?.apiKey);

/**
 * Background processes (start_process and friends) per thread, as the CLI has them per session. A run has no session
 * end: a thread's processes stop after MINI_CURSOR_STUDIO_PROCESS_IDLE seconds (15 minutes) without a process tool or
 * command of its, and all of them with the server.
 */
const processes = new ThreadProcesses({ idleMs: resolveStudioProcessIdle(env) * 1000, emit: (event) => customStream.emit(event) });

const deps = wireGraphDeps({
  models: runScopedModels(env, ollama),
  prices: runScopedPrices(env, ollama),
  events: customStream,
  memory,
  sandbox,
  extensions: mcp,
  // Each run's workspace finds its skills on first use; a bad one is logged.
  skills: createSkillLibrary(env, (message) => logger.warn(message)),
  web,
  diagnostics,
  processes: processes.forRun,
  // One session per workspace, whichever face runs it: each step of a run holds the lock the CLI and ACP hold.
  holdWorkspace: (workspace, configurable) =>
    WorkspaceLock.acquire(workspace, { force: configurable.force === true, flag: "`force: true` in the run's configurable settings" }),
  runSettings: {
    safety: (workspace, configurable) => {
      const { flags } = flagsFromRunConfig(configurable);
      return safetyPolicyFrom(resolveSafetyConfig(flags, env, loadConfigFiles(env, workspace), "configurable"));
    },
  },
});

/** The graph for each run's workspace, with its custom agents mounted (src/faces/studio/workspace-graphs.ts). */
export const graph = graphPerWorkspace(deps, env);
