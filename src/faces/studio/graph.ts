import { getWriter } from "@langchain/langgraph";
import {
  flagsFromRunConfig,
  loadConfigFiles,
  needsOllama,
  ollamaUrl,
  resolveMemoryConfig,
  resolveSafetyConfig,
  resolveStudioProcessIdle,
} from "../../platform/config/index.js";
import { probeOllama } from "../../models/ollama-probe.js";
import { systemClock } from "../../platform/clock.js";
import { startLauncher } from "../../platform/launcher/index.js";
import type { EventSink } from "../../core/index.js";
import { logger } from "../../platform/logger.js";
import { safetyPolicyFrom } from "../../safety/config.js";
import { WorkspaceLock } from "../../sessions/workspace-lock.js";
import { wireGraphDeps } from "../../host/graph-deps.js";
import { serverScope } from "../../host/service-scope.js";
import { createSessionServices } from "../../host/services.js";
import { runScopedModels } from "./run-models.js";
import { runScopedPrices } from "./run-prices.js";
import { graphPerWorkspace } from "./workspace-graphs.js";

// Tools' commands, ripgrep and git are spawned by the launcher helper, not by the large server process (src/platform/launcher).
startLauncher();

/**
 * The graph as LangGraph Studio / `langgraph dev` loads it (see langgraph.json), with the services every face gets
 * (src/host/services.ts) kept per workspace, background processes per thread: a server has no session end, so a
 * workspace's language service stops after 5 minutes without a check and a thread's processes after
 * MINI_CURSOR_STUDIO_PROCESS_IDLE seconds (15 minutes) without a process tool or command of its; MCP servers and
 * memory (Chroma starts on first use) run for the server's lifetime. The server brings its own checkpointer. Each
 * run's workspace, model and approval mode come from its configurable settings (`workspace`, `model`, `baseUrl`,
 * `apiKey`, `<role>Model`, `approval`), resolved with the environment and the workspace's `mini-cursor.json` like
 * the CLI's flags; so do its prices. Web settings come from the user config (one server serves many workspaces).
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

const services = createSessionServices(
  { env, clock: systemClock, memory: resolveMemoryConfig(env), events: customStream, notice: (level, message) => logger[level](message) },
  serverScope({ idleMs: { diagnostics: 5 * 60_000, processes: resolveStudioProcessIdle(env) * 1000 } }),
);
const sandbox = await services.sandbox;
if (sandbox.kind !== "bubblewrap") logger.warn(`no sandbox for commands (${sandbox.reason}): every command needs approval`);
const ollama = needsOllama({}, env) ? { url: ollamaUrl(env), models: await probeOllama(ollamaUrl(env)) } : null;

const deps = wireGraphDeps({
  models: runScopedModels(env, ollama),
  prices: runScopedPrices(env, ollama),
  events: customStream,
  memory: services.memory,
  sandbox,
  extensions: services.extensions,
  // An MCP server's form pauses the run with an interrupt (mcp_form), answered with a Command resume.
  elicit: "interrupt",
  skills: services.skills,
  web: services.web,
  diagnostics: services.diagnostics,
  processes: services.processes,
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
