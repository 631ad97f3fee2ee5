import type { McpServerSettings } from "../../platform/config/index.js";
import { McpServerConnection, type ServerStatus } from "./server-connection.js";
import type { ExtensionCallOptions, ExtensionResult, ExtensionTool, ExtensionTools } from "./types.js";

export interface McpHubOptions {
  /** One notice per server that fails to start; the session goes on without it. */
  onFailure?: (server: McpServerSettings, reason: string) => void;
  /** A server that stopped by itself mid-session (it is started again at its next call, up to MCP_MAX_RESTARTS times). */
  onStopped?: (server: McpServerSettings, reason: string) => void;
  /** A server that had stopped by itself runs again (`restarts`: how many times in this session). */
  onRestarted?: (server: McpServerSettings, restarts: number) => void;
  startTimeoutMs?: number;
  /** The folders servers are told they work in (`roots/list`): the session's workspace. */
  roots?: readonly string[];
}

/** Stdio servers still running when this process exits (however it exits) get SIGTERM: no orphans. */
const running = new Set<McpServerConnection>();
let exitHook = false;
function killOnExit(connection: McpServerConnection): void {
  running.add(connection);
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const c of running) {
      const pid = c.pid;
      if (pid === null) continue;
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * The MCP servers of one session (one workspace): started together (in parallel, when `start` is first called),
 * stopped together. As the session's extension tools it ignores the workspace argument.
 */
export class McpHub implements ExtensionTools {
  readonly connections: McpServerConnection[];
  private started: Promise<void> | null = null;

  constructor(
    servers: readonly McpServerSettings[],
    private readonly options: McpHubOptions = {},
  ) {
    this.connections = servers.map((s) => {
      const connection = new McpServerConnection(s, options.roots);
      connection.onStopped = (reason) => options.onStopped?.(s, reason);
      connection.onRestarted = (restarts) => options.onRestarted?.(s, restarts);
      return connection;
    });
  }

  get empty(): boolean {
    return this.connections.every((c) => c.status.state === "disabled");
  }

  /** Starts every enabled server (idempotent); never rejects. */
  start(): Promise<void> {
    this.started ??= Promise.all(
      this.connections
        .filter((c) => c.status.state === "idle")
        .map(async (c) => {
          killOnExit(c);
          await c.start(this.options.startTimeoutMs);
          if (c.status.state === "failed") this.options.onFailure?.(c.settings, c.status.reason);
        }),
    ).then(() => undefined);
    return this.started;
  }

  /** Servers not started yet are not waited for: nothing to offer from them. */
  ready(_workspace?: string): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  list(_workspace?: string): readonly ExtensionTool[] {
    return this.connections.flatMap((c) => c.tools);
  }

  find(_workspace: string, name: string): ExtensionTool | undefined {
    return this.list().find((t) => t.name === name);
  }

  async call(_workspace: string, name: string, args: Record<string, unknown>, options: ExtensionCallOptions): Promise<ExtensionResult> {
    const owner = this.connections.find((c) => c.tools.some((t) => t.name === name));
    if (!owner) return { ok: false, text: `no MCP tool is called ${name} in this session.` };
    // A server that crashed since its last call is started again first (the call then goes to the new process).
    if (owner.status.state === "failed") await owner.restart(this.options.startTimeoutMs);
    return owner.call(name, args, options);
  }

  statuses(): { server: McpServerSettings; status: ServerStatus; tools: readonly ExtensionTool[] }[] {
    return this.connections.map((c) => ({ server: c.settings, status: c.status, tools: c.tools }));
  }

  /** Stops every server; waits for starts under way. */
  async close(): Promise<void> {
    await Promise.all(
      this.connections.map(async (c) => {
        await c.stop();
        running.delete(c);
      }),
    );
  }
}
