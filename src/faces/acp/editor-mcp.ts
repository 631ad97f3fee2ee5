import type { McpServer } from "@agentclientprotocol/sdk";
import { DEFAULT_MCP_CALL_TIMEOUT_MS, type McpServerSettings } from "../../platform/config/index.js";
import { invalidParams } from "./request-errors.js";

export const EDITOR_SOURCE = "the editor (ACP session)";

/**
 * MCP servers an editor passes with `session/new` or `session/load`, in the settings shape `.mcp.json` resolves to:
 * they connect, get their tools and ask for approvals the same way. Names are made safe for tool names
 * (`mcp__<server>__<tool>`). SSE servers are not supported (as in `.mcp.json`, and initialize says `sse: false`): the
 * request is refused (invalid params) before anything starts, rather than the session going on without the server.
 */
export function editorMcpServers(servers: readonly McpServer[], workspace: string): McpServerSettings[] {
  const sse = servers.find((server) => "type" in server && server.type === "sse");
  if (sse) throw invalidParams(`MCP server "${sse.name}": SSE servers are not supported (mcpCapabilities.sse is false); use stdio or http`);
  const settled: McpServerSettings[] = [];
  for (const server of servers) {
    const name = server.name.replace(/[^A-Za-z0-9_-]/g, "_") || "editor";
    // The editor passes the person's own servers: trusted like the user config's.
    const runs = "url" in server ? server.url : [server.command, ...server.args].join(" ");
    const common = {
      name,
      source: EDITOR_SOURCE,
      scope: "user" as const,
      trusted: true,
      declaration: "",
      runs,
      disabled: false,
      timeoutMs: DEFAULT_MCP_CALL_TIMEOUT_MS,
    };
    if ("type" in server && server.type === "http") {
      settled.push({ ...common, transport: "http", url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) });
    } else if ("command" in server) {
      settled.push({
        ...common,
        transport: "stdio",
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((e) => [e.name, e.value])),
        cwd: workspace,
      });
    }
  }
  return settled;
}
