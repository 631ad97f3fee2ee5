import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CLIENT_CAPABILITIES, serveClientRequests } from "./client-requests.js";
import type { McpServerSettings } from "../../platform/config/index.js";
import { mcpToolName, uniqueToolName } from "./names.js";
import { resultText } from "./result-text.js";
import { OAuthUnavailableError, SessionOAuthProvider, SignInNeededError, signInLine } from "./oauth-provider.js";
import { MCP_MAX_RESTARTS, type ExtensionCallOptions, type ExtensionResult, type ExtensionTool } from "./types.js";

/** A call that keeps reporting progress may run this many times its timeout, and at least this long, in all. */
const MAX_TOTAL_FACTOR = 10;
const MIN_MAX_TOTAL_MS = 10 * 60_000;

import { errorMessage } from "../../platform/error-info.js";

/** How long a server may take to start and list its tools. */
export const MCP_START_TIMEOUT_MS = 30_000;

export type ServerStatus =
  { state: "idle" } | { state: "disabled" } | { state: "starting" } | { state: "connected" } | { state: "failed"; reason: string } | { state: "stopped" };

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** One line for a person or the model, never a stack trace. */
function describeError(error: unknown, settings: McpServerSettings, timeoutMs: number): string {
  if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) return `no answer within ${seconds(timeoutMs)}`;
  if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) return "the server closed the connection";
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (settings.transport === "stdio" && code === "ENOENT") return `command not found: ${settings.command}`;
  if (settings.transport === "stdio" && code === "EACCES") return `command not executable: ${settings.command}`;
  const message = errorMessage(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  if (settings.transport === "http" && message === "fetch failed") return `cannot reach ${settings.url}${cause}`;
  if (settings.transport === "http" && error instanceof OAuthUnavailableError) return error.message;
  // No stored sign-in, or one that can no longer be refreshed, or a token the server still refuses: a person signs in.
  if (settings.transport === "http" && !ownAuthorization(settings.headers)) {
    if (error instanceof SignInNeededError || error instanceof UnauthorizedError) return signInLine(settings.name);
    if (error instanceof StreamableHTTPError && error.code === 401) return signInLine(settings.name);
  }
  // Its message carries the answer's body (often a whole HTML page): the status says enough.
  if (settings.transport === "http" && error instanceof StreamableHTTPError) {
    return `${settings.url} answered${error.code !== undefined ? ` HTTP ${error.code}` : " with an error"}: is it a streamable HTTP MCP endpoint (and are its headers right)?`;
  }
  return `${message}${cause}`.replace(/\s+/g, " ").slice(0, 300);
}

/** The configuration sends its own `Authorization` header: that server keeps it, and gets no OAuth sign-in. */
function ownAuthorization(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

type ListedTool = { name: string; description?: string; inputSchema: Record<string, unknown>; annotations?: { readOnlyHint?: boolean } };

/**
 * One MCP server for one session, through the MCP SDK's Client (the LangChain adapter hides what we need here: each
 * tool's annotations, a per-server status and a per-call timeout). `start` and `call` never throw.
 */
export class McpServerConnection {
  status: ServerStatus;
  tools: ExtensionTool[] = [];
  /** Our tool name → the server's. */
  private originals = new Map<string, string>();
  private client: Client | null = null;
  private transport: Transport | null = null;
  private stderrTail = "";
  private closing = false;
  /** It connected, then stopped by itself: `restart` may start it again. */
  private stoppedByItself = false;
  private restarts = 0;
  private restarting: Promise<boolean> | null = null;

  /** Called each time the server stops by itself after it connected (it crashed, or closed the connection). */
  onStopped: ((reason: string) => void) | undefined;
  /** Called when a server that had stopped by itself is running again (`restarts`: how many times so far). */
  onRestarted: ((restarts: number) => void) | undefined;
  /** The calls in progress, newest last: a server's elicitation goes to the person of the newest. */
  private calls: ExtensionCallOptions[] = [];

  /** `roots`: the folders the server is told it works in (`roots/list`): the session's workspace. */
  constructor(
    readonly settings: McpServerSettings,
    private readonly roots: readonly string[] = [],
  ) {
    this.status = settings.disabled ? { state: "disabled" } : { state: "idle" };
  }

  /** The stdio server's process, while it runs. */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  async start(startTimeoutMs = MCP_START_TIMEOUT_MS): Promise<void> {
    if (this.status.state !== "idle") return;
    const { settings } = this;
    if (settings.problem) {
      this.status = { state: "failed", reason: settings.problem };
      return;
    }
    this.status = { state: "starting" };
    // A server that says its tools changed (`notifications/tools/list_changed`) is asked for them again: the next
    // model call sees the new list.
    const client: Client = new Client(
      { name: "mini-cursor", version: "1" },
      {
        capabilities: CLIENT_CAPABILITIES,
        listChanged: { tools: { autoRefresh: false, onChanged: () => void this.refreshTools(client, startTimeoutMs) } },
      },
    );
    serveClientRequests(client, settings.name, this.roots, () => this.calls.at(-1)?.elicit);
    const transport = this.makeTransport();
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (this.closing || this.status.state !== "connected") return;
      const said = this.stderrTail.trim().split("\n").at(-1);
      const reason = `the server stopped${said ? ` (${said.slice(0, 200)})` : ""}`;
      this.status = { state: "failed", reason };
      this.stoppedByItself = true;
      this.onStopped?.(reason);
    };
    try {
      await client.connect(transport, { timeout: startTimeoutMs });
      const listed = await this.listTools(client, startTimeoutMs);
      if (this.closing) return;
      this.useTools(listed);
      this.status = { state: "connected" };
    } catch (error) {
      if (this.closing) return;
      const said = this.stderrTail.trim().split("\n").at(-1);
      const reason = describeError(error, settings, startTimeoutMs);
      this.status = { state: "failed", reason: said && /closed the connection/.test(reason) ? `the server exited: ${said.slice(0, 200)}` : reason };
      await this.stop();
    }
  }

  private async listTools(client: Client, timeoutMs: number): Promise<ListedTool[]> {
    const listed: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return listed;
  }

  /** Replaces the tools (the list is swapped whole: a model call in progress keeps the one it read). */
  private useTools(listed: readonly ListedTool[]): void {
    const { settings } = this;
    const originals = new Map<string, string>();
    const tools: ExtensionTool[] = [];
    // Sorted by the server's names, so which of two colliding tools keeps the plain name does not depend on list order.
    const seen = new Set<string>();
    for (const t of [...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      const name = uniqueToolName(settings.name, t.name, new Set(originals.keys()));
      originals.set(name, t.name);
      tools.push({
        name,
        description: (t.description ?? `${t.name} from the MCP server ${settings.name}`).slice(0, 1024),
        inputSchema: t.inputSchema,
        readOnly: t.annotations?.readOnlyHint === true,
        server: settings.name,
        original: t.name,
        ...(name !== mcpToolName(settings.name, t.name) ? { renamed: true } : {}),
        ...(settings.agents ? { agents: settings.agents } : {}),
      });
    }
    this.originals = originals;
    this.tools = tools;
  }

  /** The server's tools changed: list them again; a listing that fails keeps the old list. */
  private async refreshTools(client: Client, timeoutMs: number): Promise<void> {
    try {
      const listed = await this.listTools(client, timeoutMs);
      if (this.client === client && this.status.state === "connected") this.useTools(listed);
    } catch {
      // The old list stays; a call of a tool that is gone is the server's error.
    }
  }

  /**
   * Starts again a server that stopped by itself, at most MCP_MAX_RESTARTS times in the session; true when it runs.
   * Calls at once share one restart.
   */
  restart(startTimeoutMs = MCP_START_TIMEOUT_MS): Promise<boolean> {
    if (this.restarting) return this.restarting;
    if (this.status.state === "connected") return Promise.resolve(true);
    if (!this.stoppedByItself || this.closing || this.restarts >= MCP_MAX_RESTARTS) return Promise.resolve(false);
    this.restarting = (async () => {
      this.restarts += 1;
      this.stoppedByItself = false;
      await this.stop();
      this.closing = false;
      this.stderrTail = "";
      this.status = { state: "idle" };
      await this.start(startTimeoutMs);
      // start() changed the status (TypeScript still sees the "idle" set above).
      const up = (this.status as ServerStatus).state === "connected";
      if (up) this.onRestarted?.(this.restarts);
      return up;
    })().finally(() => {
      this.restarting = null;
    });
    return this.restarting;
  }

  private makeTransport(): Transport {
    const { settings } = this;
    if (settings.transport === "http") {
      // The stored sign-in (mini-cursor mcp login) of this URL, in the user's config folder (this process's own
      // environment: where `login` stored it); the SDK sends its token and refreshes it on a 401.
      const authProvider = ownAuthorization(settings.headers) ? undefined : new SessionOAuthProvider(process.env, settings.url);
      return new StreamableHTTPClientTransport(new URL(settings.url), {
        requestInit: { headers: settings.headers },
        ...(authProvider ? { authProvider } : {}),
      });
    }
    // Only the configured variables and a few safe ones (PATH, HOME, …) reach the server: no API keys of ours.
    const transport = new StdioClientTransport({ command: settings.command, args: settings.args, env: settings.env, cwd: settings.cwd, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000);
    });
    return transport;
  }

  async call(name: string, args: Record<string, unknown>, options: ExtensionCallOptions): Promise<ExtensionResult> {
    const { settings } = this;
    const original = this.originals.get(name);
    if (!this.client || !original || this.status.state !== "connected") {
      const why =
        this.status.state === "failed" ? this.status.reason : this.status.state === "connected" ? "it no longer offers that tool" : "it is not running";
      return { ok: false, text: `the MCP server "${settings.name}" cannot run ${name}: ${why}.` };
    }
    this.calls.push(options);
    try {
      // Asking for progress sends a progress token; each report restarts the timeout, up to an overall maximum.
      const onProgress = options.onProgress;
      const result = (await this.client.callTool({ name: original, arguments: args }, undefined, {
        timeout: settings.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: Math.max(settings.timeoutMs * MAX_TOTAL_FACTOR, MIN_MAX_TOTAL_MS),
        onprogress: (p) =>
          onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) }),
        ...(options.signal ? { signal: options.signal } : {}),
      })) as Record<string, unknown>;
      const text = resultText(result, options.outputLimitChars);
      return result.isError === true ? { ok: false, text: `${name} reported an error: ${text}` } : { ok: true, text };
    } catch (error) {
      return { ok: false, text: `${name} failed: ${describeError(error, settings, settings.timeoutMs)}.` };
    } finally {
      this.calls.splice(this.calls.lastIndexOf(options), 1);
    }
  }

  /** Stops the server (a stdio server's process ends: stdin closed, then SIGTERM, then SIGKILL). */
  async stop(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = null;
    if (this.status.state === "connected" || this.status.state === "starting") this.status = { state: "stopped" };
    // Most stdio servers do not exit when their stdin closes; the SDK would wait 2 s before its SIGTERM.
    const pid = this.pid;
    if (pid !== null) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    try {
      await client?.close();
    } catch {
      // Already gone.
    }
  }
}
