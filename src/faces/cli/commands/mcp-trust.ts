import { resolveMcpConfig, updateTrustedMcpServers, type McpServerSettings } from "../../../platform/config/index.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";

/** What a server runs or reaches, for a person deciding whether to trust it: the command line, or the URL, as declared. */
export function runsWhat(server: McpServerSettings): string {
  return server.runs;
}

/** The project's servers `names` picks (all of them when empty); an unknown or user-config name is a usage error. */
function pick(servers: readonly McpServerSettings[], names: readonly string[], workspace: string): McpServerSettings[] {
  const project = servers.filter((s) => s.scope === "project");
  if (names.length === 0) return project;
  return names.map((name) => {
    const found = servers.find((s) => s.name === name);
    if (!found) {
      const known = project.map((s) => s.name).join(", ");
      throw new UsageError(`${workspace} declares no MCP server "${name}"${known ? ` (its servers: ${known})` : ""}`);
    }
    if (found.scope === "user") throw new UsageError(`the MCP server "${name}" is your own (${found.source}): it needs no trust`);
    return found;
  });
}

/**
 * `mcp trust [NAME...]`: records the project's servers (all, or those named) as trusted in the form they are declared
 * now; `mcp untrust [NAME...]` takes that back. Sessions start a project's server only while it is trusted.
 */
export function mcpTrustCommand(trust: boolean, names: readonly string[], workspace: string, json: boolean, io: CliIo): number {
  const servers = pick(resolveMcpConfig(io.env, workspace), names, workspace);
  if (servers.length === 0) {
    io.stdout.write(
      json
        ? `${JSON.stringify({ workspace, trusted: trust, servers: [] })}\n`
        : `${workspace} declares no MCP servers of its own (.mcp.json, mini-cursor.json): nothing to ${trust ? "trust" : "untrust"}.\n`,
    );
    return EXIT.done;
  }
  updateTrustedMcpServers(io.env, workspace, (current) => {
    for (const s of servers) {
      if (trust) current[s.name] = s.declaration;
      else delete current[s.name];
    }
    return current;
  });
  if (json) {
    io.stdout.write(`${JSON.stringify({ workspace, trusted: trust, servers: servers.map((s) => ({ name: s.name, source: s.source, runs: runsWhat(s) })) })}\n`);
    return EXIT.done;
  }
  const lines = servers.map((s) => `  ${s.name}  ${runsWhat(s)}  (from ${s.source})`);
  const count = servers.length === 1 ? "1 MCP server" : `${servers.length} MCP servers`;
  const after = trust
    ? "Sessions in this workspace start them from now on, until their declaration changes (then trust them again)."
    : "Sessions in this workspace no longer start them (mini-cursor mcp trust starts them again).";
  io.stdout.write(`${trust ? "Trusted" : "No longer trusted:"} ${count} of ${workspace}:\n${lines.join("\n")}\n${after}\n`);
  return EXIT.done;
}
