import os from "node:os";
import {
  ConfigError,
  resolveIndexConfig,
  resolveMcpConfig,
  resolveSandboxConfig,
  type McpServerSettings,
  type MemorySettings,
} from "../platform/config/index.js";
import type { EventSink } from "../core/index.js";
import { LazyMcpHub } from "../mcp/lazy-hub.js";
import { trustedOnly, untrustedMessage } from "../mcp/trusted.js";
import { MCP_MAX_RESTARTS } from "../mcp/types.js";
import { LazyMemory } from "../memory/lazy-memory.js";
import { openMemory, type MemoryRuntime } from "../memory/open-memory.js";
import { SessionCodeIndex } from "../memory/retrieval/session-index.js";
import type { Clock } from "../platform/clock.js";
import { selectSandbox } from "../safety/sandbox/index.js";
import type { SandboxStatus } from "../safety/sandbox/types.js";
import { ShadowStore, UndoRecorder } from "../sessions/undo/index.js";
import { BackgroundProcesses } from "../tools/index.js";
import { recordRunning } from "./background-record.js";
import { EXIT, interruptedLine } from "./session-exit.js";

/**
 * What a session needs from child processes: the sandbox probe (bubblewrap), started as soon as the session's
 * workspace and id are known, while the CLI still loads LangGraph; the undo baseline (git), which the session runner
 * starts with the first planner call, and long-term memory (a Chroma server), which it starts once the first model
 * request is out (src/host/first-request.ts), so that none competes with loading or with sending that request. Each is awaited only where its result is used: the sandbox when the graph is wired, the
 * baseline before the first sub-agent's tools, memory by the planner's second turn if the first went ahead without
 * it, and by search.
 */
export interface SessionServices {
  undo: UndoRecorder;
  memory: LazyMemory;
  /** Settles once memory is started (startMemory) and open or known to be off. */
  memoryOpened: Promise<MemoryRuntime>;
  /** Starts opening memory (idempotent): once the first model request is out. */
  startMemory(): void;
  sandbox: Promise<SandboxStatus>;
  /** The codebase index (built in the background once memory is open), or undefined when it is off. */
  codeIndex: SessionCodeIndex | undefined;
  /** The session's MCP servers: started (startMcp) with the first planner call, in parallel; stopped by close. */
  mcp: LazyMcpHub;
  /** Starts the MCP servers (idempotent); a server that fails is one notice and the session goes on without it. */
  startMcp(): void;
  /** The session's background processes (start_process): stopped by close, and by the runner when the session ends. */
  processes: BackgroundProcesses;
  /** The session runner handles Ctrl-C and SIGTERM from now on. */
  handOver(): void;
  /** Waits for work under way (the baseline, a Chroma start) and stops what this process started. */
  close(): Promise<void>;
}

export interface SessionServiceOptions {
  workspace: string;
  sessionId: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  memory: MemorySettings;
  events: EventSink;
  /** Where the interrupted line goes when a signal arrives before the session runner takes over. */
  stderr?: { write(text: string): unknown };
  /** Servers the face adds to the configured ones (an editor's, over ACP); one of the same name replaces the file's. */
  mcpServers?: readonly McpServerSettings[];
}

export function startSessionServices(o: SessionServiceOptions): SessionServices {
  const undo = new UndoRecorder(ShadowStore.open(o.workspace, { env: o.env, clock: o.clock }), o.sessionId, (message) =>
    o.events.emit({ type: "notice", level: "warn", message: `Undo: ${message}` }),
  );
  const memory = new LazyMemory(
    o.memory.enabled,
    () =>
      openMemory({
        env: o.env,
        settings: o.memory,
        clock: o.clock,
        onOff: (reason) => o.events.emit({ type: "notice", level: "warn", message: `Memory is off from now on: ${reason}` }),
      }),
    { reportsStatus: true, beginsInBackground: true },
  );
  let startMemory = (): void => undefined;
  // Resolved with the opening itself once it is started; begin() is idempotent, so starting twice is harmless.
  const memoryOpened = new Promise<MemoryRuntime>((resolve) => (startMemory = () => resolve(memory.begin())));
  const mcp = startableMcp(o);
  const processes = new BackgroundProcesses({
    emit: (event) => o.events.emit(event),
    clock: o.clock,
    onChange: (running) => recordRunning(o.workspace, o.sessionId, running),
  });
  const codeIndex = startableIndex(o);
  const sandbox = selectSandbox(resolveSandboxConfig(o.env), o.env.HOME || os.homedir());
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await undo.settled();
      // The index before memory: it may share memory's connection to Chroma, which memory's close ends.
      const closeChroma = async () => {
        await codeIndex?.close();
        await memory.close();
      };
      await Promise.all([closeChroma(), mcp.hub.close(), processes.stopAll()]);
    })());

  // Until the runner takes over, a signal stops here: a Chroma server still starting must be stopped, not orphaned.
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(EXIT.interrupted);
    o.stderr?.write(`mini-cursor: ${interruptedLine(signal)}\n`);
    void close().finally(() => process.exit(EXIT.interrupted));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const handOver = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  return { undo, memory, memoryOpened, startMemory: () => startMemory(), sandbox, codeIndex, mcp: mcp.hub, startMcp: mcp.start, processes, handOver, close };
}

/** The session's codebase index when it is on (with memory, or MINI_CURSOR_INDEX=on); a bad setting is a notice. */
function startableIndex(o: SessionServiceOptions): SessionCodeIndex | undefined {
  let settings;
  try {
    settings = resolveIndexConfig(o.env, o.memory);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    o.events.emit({ type: "notice", level: "warn", message: `The codebase index is off: ${error.message}` });
    return undefined;
  }
  if (!settings.enabled) return undefined;
  return new SessionCodeIndex({ root: o.workspace, env: o.env, clock: o.clock, settings });
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * The MCP servers as configured (user config, `.mcp.json`, `mini-cursor.json`). A file that cannot be used does not
 * stop the session: it is one notice when the servers would start, and the session goes on without them.
 */
function startableMcp(o: SessionServiceOptions): { hub: LazyMcpHub; start: () => void } {
  let servers: McpServerSettings[] = [];
  let untrusted: string[] = [];
  let problem: string | null = null;
  try {
    // A project's servers run only once the person trusted them (src/platform/config/mcp-trust.ts).
    ({ servers, untrusted } = trustedOnly(resolveMcpConfig(o.env, o.workspace)));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problem = error.message;
  }
  const added = o.mcpServers ?? [];
  if (added.length > 0) servers = [...servers.filter((s) => !added.some((a) => a.name === s.name)), ...added];
  const hub = new LazyMcpHub(servers, {
    onFailure: (server, reason) =>
      o.events.emit({ type: "notice", level: "warn", message: `MCP server "${server.name}" did not start: ${reason}. The session goes on without it.` }),
    onStopped: (server, reason) =>
      o.events.emit({
        type: "notice",
        level: "warn",
        message: `MCP server "${server.name}" stopped: ${reason}. It is started again at its next tool call (${MCP_MAX_RESTARTS} times at most in a session).`,
      }),
    onRestarted: (server, restarts) =>
      o.events.emit({ type: "notice", level: "info", message: `MCP server "${server.name}" started again (${restarts} of ${MCP_MAX_RESTARTS}).` }),
  });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    if (problem) o.events.emit({ type: "notice", level: "warn", message: `MCP servers are off: ${problem}` });
    if (untrusted.length > 0) o.events.emit({ type: "notice", level: "warn", message: `${capitalized(untrustedMessage(untrusted))}.` });
    void hub.start().then(() => {
      const up = hub.statuses().filter((s) => s.status.state === "connected");
      if (up.length > 0)
        o.events.emit({ type: "notice", level: "info", message: `MCP: ${up.map((s) => `${s.server.name} (${s.tools.length} tools)`).join(", ")}` });
    });
  };
  return { hub, start };
}
