import type { McpServerSettings } from "../../platform/config/index.js";

/** The servers a session may start, and the names of the project's servers it may not (not trusted, not disabled). */
export function trustedOnly(servers: readonly McpServerSettings[]): { servers: McpServerSettings[]; untrusted: string[] } {
  return {
    servers: servers.filter((s) => s.trusted),
    untrusted: servers.filter((s) => !s.trusted && !s.disabled).map((s) => s.name),
  };
}

/** The one line a session says about a project's servers it did not start. */
export function untrustedMessage(untrusted: readonly string[]): string {
  const names = untrusted.map((n) => `"${n}"`).join(", ");
  const these = untrusted.length === 1 ? "MCP server" : "MCP servers";
  return `the project declares the ${these} ${names}, not started until you trust ${untrusted.length === 1 ? "it" : "them"}: see what ${untrusted.length === 1 ? "it runs" : "they run"} with mini-cursor mcp list, then mini-cursor mcp trust`;
}
