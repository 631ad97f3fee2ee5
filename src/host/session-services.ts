import { ConfigError, resolveIndexConfig, type McpServerSettings, type MemorySettings } from "../platform/config/index.js";
import type { EventSink } from "../core/index.js";
import type { MemoryRuntime } from "../memory/open-memory.js";
import { SessionCodeIndex } from "../memory/retrieval/session-index.js";
import type { Clock } from "../platform/clock.js";
import { ShadowStore, UndoRecorder } from "../sessions/undo/index.js";
import type { BackgroundProcesses } from "../tools/index.js";
import { recordRunning } from "./background-record.js";
import { createSessionServices, type Services } from "./services.js";
import { sessionScope } from "./service-scope.js";
import { EXIT, interruptedLine } from "./session-exit.js";

/**
 * What a session needs from child processes: the sandbox probe (bubblewrap) and long-term memory (a Chroma server,
 * started or reached), both begun as soon as the session's workspace and id are known, while the face still loads
 * LangGraph; the undo baseline (git), which the session runner starts with the first planner call; the codebase index,
 * once the first model request is out (src/host/first-request.ts). Each is awaited only where its result is used: the
 * sandbox when the graph is wired, memory by a planner turn for at most MINI_CURSOR_MEMORY_WAIT and by search, the
 * baseline before the first sub-agent's tools. The services every face shares come from createSessionServices
 * (src/host/services.ts) with the session's scope; undo and the codebase index are a session's own (they need its
 * database folder and id).
 */
export interface SessionServices extends Services {
  undo: UndoRecorder;
  /** Settles once memory, begun as the services start, is open or known to be off. */
  memoryOpened: Promise<MemoryRuntime>;
  /** The codebase index (built in the background once memory is open), or undefined when it is off. */
  codeIndex: SessionCodeIndex | undefined;
  /** Starts the session's MCP servers (idempotent), in parallel with the first planner call; a server that fails is one notice. */
  startMcp(): void;
  /** The session's background processes (start_process): stopped by close, and by the runner when the session ends. */
  sessionProcesses: BackgroundProcesses;
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
  const notice = (level: "info" | "warn", message: string) => o.events.emit({ type: "notice", level, message });
  const shared = createSessionServices(
    {
      env: o.env,
      clock: o.clock,
      memory: o.memory,
      events: o.events,
      notice,
      ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
      onProcessesChange: (_key, running) => recordRunning(o.workspace, o.sessionId, running),
    },
    sessionScope({ sessionId: o.sessionId, workspace: o.workspace }),
  );
  const undo = new UndoRecorder(ShadowStore.open(o.workspace, { env: o.env, clock: o.clock }), o.sessionId, (message) => notice("warn", `Undo: ${message}`));
  // At once, while the face still loads the graph: the first plan recalls memories if memory opens in time for it
  // (MINI_CURSOR_MEMORY_WAIT; src/graph/nodes/planner/recall.ts).
  const memoryOpened = shared.memory.begin();
  const codeIndex = startableIndex(o);
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await undo.settled();
      // The index before memory: it may share memory's connection to Chroma, which memory's close ends.
      await codeIndex?.close();
      await shared.close();
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
  return {
    ...shared,
    undo,
    memoryOpened,
    codeIndex,
    startMcp: () => void shared.extensions.ready(o.workspace),
    sessionProcesses: shared.processesOf(o.sessionId),
    handOver,
    close,
  };
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
