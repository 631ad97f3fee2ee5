import { McpHub } from "./mcp-hub.js";
import type { ExtensionCallOptions, ExtensionResult, ExtensionTool, ExtensionTools } from "./types.js";

/**
 * MCP servers for a process that serves many workspaces (Studio): each workspace gets its own servers, from its own
 * configuration, started when a run first needs them and kept for the process (stdio servers are stopped when it
 * exits, see mcp-hub.ts). `hubFor` builds a workspace's hub; it must not throw.
 */
export class WorkspaceHubs implements ExtensionTools {
  private readonly hubs = new Map<string, McpHub>();

  constructor(private readonly hubFor: (workspace: string) => McpHub) {}

  private hub(workspace: string): McpHub {
    let hub = this.hubs.get(workspace);
    if (!hub) {
      hub = this.hubFor(workspace);
      this.hubs.set(workspace, hub);
    }
    return hub;
  }

  ready(workspace: string): Promise<void> {
    return this.hub(workspace).start();
  }

  list(workspace: string): readonly ExtensionTool[] {
    return this.hubs.get(workspace)?.list() ?? [];
  }

  find(workspace: string, name: string): ExtensionTool | undefined {
    return this.hubs.get(workspace)?.find(workspace, name);
  }

  call(workspace: string, name: string, args: Record<string, unknown>, options: ExtensionCallOptions): Promise<ExtensionResult> {
    return this.hub(workspace).call(workspace, name, args, options);
  }

  async close(): Promise<void> {
    await Promise.all([...this.hubs.values()].map((h) => h.close()));
    this.hubs.clear();
  }
}
