import type { McpServerSettings } from "../../platform/config/index.js";
import type { McpHub, McpHubOptions } from "./mcp-hub.js";
import type { ServerStatus } from "./server-connection.js";
import type { ExtensionCallOptions, ExtensionResult, ExtensionTool, ExtensionTools } from "./types.js";

/**
 * A session's MCP servers without the MCP SDK on the start-up path: the SDK (a few hundred ms to load) is imported
 * when the servers start, with the first planner call, and never when no server is configured. Until then it has no
 * tools.
 */
export class LazyMcpHub implements ExtensionTools {
  private hub: McpHub | null = null;
  private loaded: Promise<McpHub | null> | null = null;
  private started: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly servers: readonly McpServerSettings[],
    private readonly options: McpHubOptions = {},
  ) {}

  /** Starts every enabled server (idempotent); never rejects. */
  start(): Promise<void> {
    if (this.started) return this.started;
    const enabled = this.servers.some((s) => !s.disabled);
    this.loaded = enabled
      ? import("./mcp-hub.js").then(({ McpHub }) => {
          if (this.closed) return null;
          this.hub = new McpHub(this.servers, this.options);
          return this.hub;
        })
      : Promise.resolve(null);
    this.started = this.loaded.then((hub) => hub?.start());
    return this.started;
  }

  ready(_workspace?: string): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  list(_workspace?: string): readonly ExtensionTool[] {
    return this.hub?.list() ?? [];
  }

  find(workspace: string, name: string): ExtensionTool | undefined {
    return this.hub?.find(workspace, name);
  }

  call(workspace: string, name: string, args: Record<string, unknown>, options: ExtensionCallOptions): Promise<ExtensionResult> {
    return this.hub ? this.hub.call(workspace, name, args, options) : Promise.resolve({ ok: false, text: `no MCP tool is called ${name} in this session.` });
  }

  statuses(): { server: McpServerSettings; status: ServerStatus; tools: readonly ExtensionTool[] }[] {
    return this.hub?.statuses() ?? [];
  }

  /** Stops every server, also one still starting (a start under way is not waited for). */
  async close(): Promise<void> {
    this.closed = true;
    const hub = await this.loaded;
    await hub?.close();
  }
}
