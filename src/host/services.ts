import {
  ConfigError,
  DIAGNOSTICS_DEFAULTS,
  loadConfigFiles,
  resolveDiagnosticsConfig,
  resolveMcpConfig,
  resolveWebConfig,
  type DiagnosticsSettings,
  type McpServerSettings,
  type MemorySettings,
  type WebSettings,
} from "../platform/config/index.js";
import type { EventSink } from "../core/index.js";
import { LazyMcpHub } from "../services/mcp/lazy-hub.js";
import { trustedOnly, untrustedMessage } from "../services/mcp/trusted.js";
import { MCP_MAX_RESTARTS, type ExtensionTools } from "../services/mcp/types.js";
import { LazyMemory } from "../memory/lazy-memory.js";
import { openMemory } from "../memory/open-memory.js";
import type { Clock } from "../platform/clock.js";
import type { SandboxStatus } from "../safety/sandbox/types.js";
import { keepFromCommands } from "../services/commands/command-env.js";
import { createSkillLibrary } from "../services/skills/catalogue.js";
import { BackgroundProcesses, createDiagnosticsHub, type Diagnostics, type ProcessesSource, type ProcessSummary, type SkillLibrary } from "../tools/index.js";
import { chooseSandbox, commandSandbox } from "./graph-deps.js";
import type { ServiceScope } from "./service-scope.js";

export interface ServiceSettings {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  memory: MemorySettings;
  /** Background processes' progress: the session's printer, or the run's custom stream. */
  events: EventSink;
  /** Where the services' notices go: the session's events (CLI, ACP), the server's log (Studio). */
  notice: (level: "info" | "warn", message: string) => void;
  /** Servers the face adds to the configured ones (an editor's, over ACP); one of the same name replaces the file's. */
  mcpServers?: readonly McpServerSettings[];
  /** Told when a key's running background processes change (a session records them for its next resume). */
  onProcessesChange?: (key: string, running: readonly ProcessSummary[]) => void;
}

/** What every face's runs use, assembled once; how long each part lives is the scope's (src/host/service-scope.ts). */
export interface Services {
  /** The sandbox probe, started at once: commands run in bubblewrap, or every command needs approval. */
  sandbox: Promise<SandboxStatus>;
  /** Long-term memory: a session starts it in the background (LazyMemory.begin), a server on first use. */
  memory: LazyMemory;
  /** The MCP servers of each run's workspace (they start on the first ready or call). */
  extensions: ExtensionTools;
  /** Problems after edits and project_diagnostics: each workspace's language service, in the sandbox only. */
  diagnostics: Diagnostics;
  /** The background processes of a run: the session's, or its thread's. */
  processes: ProcessesSource;
  /** The background processes kept under one key (a session's own, for its report). */
  processesOf(key: string): BackgroundProcesses;
  skills: SkillLibrary;
  /** fetch_url and web_search: the session workspace's settings, or (a server) the user's. */
  web: WebSettings;
  /** Stops what the services started (memory, MCP servers, language services, background processes). */
  close(): Promise<void>;
}

/** The one assembly of the services the CLI, ACP and Studio give a session graph (issue 39). */
export function createSessionServices(s: ServiceSettings, scope: ServiceScope): Services {
  const { env } = s;
  const sandbox = chooseSandbox(env);
  // A session tells its person about memory and opens it early; a server opens it on first use and logs failures.
  const early = scope.kind === "session";
  const memory = new LazyMemory(
    s.memory.enabled,
    () =>
      openMemory({
        env,
        settings: s.memory,
        clock: s.clock,
        ...(early ? { onOff: (reason: string) => s.notice("warn", `Memory is off from now on: ${reason}`) } : {}),
      }),
    { ...(early ? { reportsStatus: true } : {}), ...(s.memory.enabled ? { recallWaitMs: s.memory.recallWaitMs } : {}) },
  );
  const hubs = scope.keep("mcp", { make: (workspace) => startableMcp(s, workspace, scope), close: (m) => m.hub.close() });
  const extensions: ExtensionTools = {
    ready: (workspace) => hubs.get(workspace).start(),
    list: (workspace) => hubs.get(workspace).hub.list(workspace),
    find: (workspace, name) => hubs.get(workspace).hub.find(workspace, name),
    call: (workspace, name, args, options) => hubs.hold(workspace, (m) => m.hub.call(workspace, name, args, options)),
  };
  let probed: SandboxStatus | undefined;
  const checked = sandbox.then((status) => (probed = status));
  const checkers = scope.keep("diagnostics", {
    // The checkers run the project's own code: only in the sandbox (the probe has settled before the first check).
    make: (root) => createDiagnosticsHub({ settings: diagnosticsSettings(s, root), sandbox: commandSandbox(probed ?? NO_SANDBOX), parentEnv: env }),
    close: (hub) => hub.close(),
  });
  const diagnostics: Diagnostics = {
    afterEdit: async (root, change, signal) => {
      await checked;
      return checkers.hold(root, (hub) => hub.afterEdit(root, change, signal));
    },
    project: async (root, signal) => {
      await checked;
      return checkers.hold(root, (hub) => hub.project(root, signal));
    },
    close: () => void checkers.close(),
  };
  const registries = scope.keep("processes", {
    make: (key) =>
      new BackgroundProcesses({
        emit: (event) => s.events.emit(event),
        clock: s.clock,
        ...(s.onProcessesChange ? { onChange: (running: ProcessSummary[]) => s.onProcessesChange?.(key, running) } : {}),
      }),
    close: (registry) => registry.stopAll(),
  });
  const processes: ProcessesSource = (config) => {
    const key = scope.processKey(config);
    return key === undefined ? undefined : registries.get(key);
  };
  // The search key may come in under any name (web.search.apiKeyEnv): commands never get it.
  const web = resolveWebConfig(loadConfigFiles(env, scope.workspace), env);
  keepFromCommands(web.search?.apiKey);
  let closing: Promise<void> | null = null;
  return {
    sandbox,
    memory,
    extensions,
    diagnostics,
    processes,
    processesOf: (key) => registries.get(key),
    // Skills are found per workspace on first use (folder listings and frontmatter only); a bad one is a notice.
    skills: createSkillLibrary(env, (message) => s.notice("warn", message)),
    web,
    close: () => (closing ??= Promise.all([memory.close(), hubs.close(), checkers.close(), registries.close()]).then(() => undefined)),
  };
}

const NO_SANDBOX: SandboxStatus = { kind: "none", reason: "the sandbox probe has not finished" };

/** A workspace's `diagnostics` settings (its mini-cursor.json, the user config, the environment); a bad one turns them off. */
function diagnosticsSettings(s: ServiceSettings, workspace: string): DiagnosticsSettings {
  try {
    return resolveDiagnosticsConfig(loadConfigFiles(s.env, workspace), s.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    s.notice("warn", `Diagnostics are off for ${workspace}: ${error.message}`);
    return { ...DIAGNOSTICS_DEFAULTS, enabled: false };
  }
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * A workspace's MCP servers as configured (user config, `.mcp.json`, `mini-cursor.json`), a project's only once
 * trusted (src/platform/config/mcp-trust.ts). A file that cannot be used does not stop the runs: it is one notice when
 * the servers would start, and the runs go on without them.
 */
function startableMcp(s: ServiceSettings, workspace: string, scope: ServiceScope): { hub: LazyMcpHub; start: () => Promise<void> } {
  let servers: McpServerSettings[] = [];
  let untrusted: string[] = [];
  let problem: string | null = null;
  try {
    ({ servers, untrusted } = trustedOnly(resolveMcpConfig(s.env, workspace)));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problem = error.message;
  }
  const added = s.mcpServers ?? [];
  if (added.length > 0) servers = [...servers.filter((one) => !added.some((a) => a.name === one.name)), ...added];
  // A server serves many workspaces: its log names the one meant.
  const where = scope.kind === "server" ? ` (${workspace})` : "";
  const hub = new LazyMcpHub(servers, {
    roots: [workspace],
    onFailure: (server, reason) => s.notice("warn", `MCP server "${server.name}"${where} did not start: ${reason}. The session goes on without it.`),
    onStopped: (server, reason) =>
      s.notice(
        "warn",
        `MCP server "${server.name}"${where} stopped: ${reason}. It is started again at its next tool call (${MCP_MAX_RESTARTS} times at most in a session).`,
      ),
    onRestarted: (server, restarts) => s.notice("info", `MCP server "${server.name}"${where} started again (${restarts} of ${MCP_MAX_RESTARTS}).`),
  });
  let started: Promise<void> | null = null;
  const start = () =>
    (started ??= (() => {
      if (problem) s.notice("warn", `MCP servers are off${where}: ${problem}`);
      // A server's log says which workspace to trust; a session's person is in it.
      const trustLine =
        scope.kind === "server" ? `${workspace}: ${untrustedMessage(untrusted)} --workspace ${workspace}` : `${capitalized(untrustedMessage(untrusted))}.`;
      if (untrusted.length > 0) s.notice("warn", trustLine);
      return hub.start().then(() => {
        const up = hub.statuses().filter((one) => one.status.state === "connected");
        if (up.length > 0) s.notice("info", `MCP: ${up.map((one) => `${one.server.name} (${one.tools.length} tools)`).join(", ")}`);
      });
    })());
  return { hub, start };
}
