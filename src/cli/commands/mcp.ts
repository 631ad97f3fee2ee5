import { resolveMcpConfig } from "../../config/index.js";
import { McpHub, type ServerStatus } from "../../mcp/index.js";
import { COMMON_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";

export const MCP_HELP = `Usage: mini-cursor mcp list [--workspace DIR] [--json]

Starts each MCP server a session in this workspace would use, lists its tools, and stops it again.
Servers are declared under "mcpServers" in the user config (~/.config/mini-cursor/config.json), the
workspace's .mcp.json and its mini-cursor.json; a server declared again in a later one replaces the
earlier (the workspace's files win). Read-only tools (annotated readOnlyHint) are marked: they go to
every agent and run without asking; the others go to the coder and ask under --approval auto too,
unless a "commands.allow" rule names them (e.g. "mcp__github__*").

Exit codes: 0 listed (also when a server failed to start); 2 a bad command line or configuration.

Options:
  --workspace DIR   The workspace whose servers to list (default: the current folder)
  --json            One JSON array instead of text
  -h, --help        Show this help`;

export interface McpServerReport {
  name: string;
  source: string;
  transport: "stdio" | "http";
  status: "connected" | "failed" | "disabled";
  reason?: string;
  tools: { name: string; readOnly: boolean; description: string }[];
}

function statusOf(status: ServerStatus): Pick<McpServerReport, "status" | "reason"> {
  if (status.state === "connected") return { status: "connected" };
  if (status.state === "disabled") return { status: "disabled" };
  return { status: "failed", reason: status.state === "failed" ? status.reason : "it did not start" };
}

/** Starts every enabled server of the workspace, reports them, stops them. Never throws for a server that fails. */
export async function inspectMcpServers(env: NodeJS.ProcessEnv, workspace: string): Promise<McpServerReport[]> {
  const hub = new McpHub(resolveMcpConfig(env, workspace));
  try {
    await hub.start();
    return hub.statuses().map(({ server, status, tools }) => ({
      name: server.name,
      source: server.source,
      transport: server.transport,
      ...statusOf(status),
      tools: tools.map((t) => ({ name: t.name, readOnly: t.readOnly, description: t.description.split("\n", 1)[0] ?? "" })),
    }));
  } finally {
    await hub.close();
  }
}

export function formatMcpReport(servers: readonly McpServerReport[]): string {
  if (servers.length === 0) return "No MCP servers are configured (mcpServers in .mcp.json, mini-cursor.json or the user config).";
  const lines = [`MCP servers (${servers.length}):`];
  for (const s of servers) {
    const status = s.status === "failed" ? `failed: ${s.reason ?? ""}` : s.status;
    lines.push(`  ${s.name}  ${status}  (${s.transport}, from ${s.source})`);
    const width = Math.max(0, ...s.tools.map((t) => t.name.length));
    for (const t of s.tools) lines.push(`    ${t.name.padEnd(width)}  ${t.readOnly ? "read-only" : "changes  "}  ${t.description.slice(0, 80)}`.trimEnd());
  }
  return lines.join("\n");
}

export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS, "mcp");
  if (values.help) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.done;
  }
  const [sub, ...rest] = positionals;
  if (sub !== "list") throw new UsageError(sub === undefined ? "mcp needs a command: list (see mini-cursor mcp --help)" : `unknown mcp command "${sub}"; the command is: list`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ""}" for mini-cursor mcp list`);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const servers = await inspectMcpServers(io.env, workspace);
  io.stdout.write(values.json ? `${JSON.stringify(servers, null, 2)}\n` : `${formatMcpReport(servers)}\n`);
  return EXIT.done;
}
