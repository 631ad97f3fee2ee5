import { resolveMcpConfig } from "../../../platform/config/index.js";
import { McpHub, type ServerStatus } from "../../../services/mcp/index.js";
import { COMMON_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { mcpLoginCommand, mcpLogoutCommand } from "./mcp-login.js";
import { mcpTrustCommand, runsWhat } from "./mcp-trust.js";

export const MCP_HELP = `Usage: mini-cursor mcp list [--workspace DIR] [--json]
       mini-cursor mcp trust [NAME...] [--workspace DIR] [--json]
       mini-cursor mcp untrust [NAME...] [--workspace DIR] [--json]
       mini-cursor mcp login NAME [--workspace DIR]
       mini-cursor mcp logout NAME [--workspace DIR]

list: starts each MCP server a session in this workspace would use, lists its tools, and stops it again.
Servers are declared under "mcpServers" in the user config (~/.config/mini-cursor/config.json), the
workspace's .mcp.json and its mini-cursor.json; a server declared again in a later one replaces the
earlier (the workspace's files win). Read-only tools (annotated readOnlyHint) are marked: they go to
every agent and run without asking; the others go to the coder and ask under --approval auto too,
unless a "commands.allow" rule names them (e.g. "mcp__github__*").

trust: a server the project declares (.mcp.json, mini-cursor.json) runs outside the sandbox with your
rights, so sessions start it only once you trust it: list shows what it runs ("untrusted", not
started), trust records the project's servers (or those named) as they are declared now, untrust
takes that back. A changed declaration (command, arguments, env, cwd, url, headers) needs a new trust.
Your own servers (the user config's) need none.

login: signs in to an HTTP server that asks for OAuth (list says "needs sign-in"): prints the URL to
open (and opens a browser when there is one), waits up to 5 minutes for the browser to come back to
a loopback address, and keeps the tokens in ~/.config/mini-cursor/mcp-oauth/ (owner-only, one file
per server URL, never in the workspace). Sessions use them and refresh them by themselves; a server
whose sign-in is missing or expired for good fails with "needs sign-in". logout deletes them. A
server with its own Authorization header (headers) does not use a sign-in.

Exit codes: 0 done (also when a server failed to start); 1 the sign-in failed; 2 a bad command line
or configuration; 130 the sign-in was interrupted (Ctrl-C).

Options:
  --workspace DIR   The workspace whose servers to list (default: the current folder)
  --json            One JSON array instead of text
  -h, --help        Show this help`;

export interface McpServerReport {
  name: string;
  source: string;
  transport: "stdio" | "http";
  /** "untrusted": a project's server not trusted yet, not started. */
  status: "connected" | "failed" | "disabled" | "untrusted";
  reason?: string;
  /** The command line, or the URL. */
  runs: string;
  /** `original`: the server's own name; `renamed`: its safe name was another tool's, so it got a suffix. */
  tools: { name: string; original: string; renamed: boolean; readOnly: boolean; description: string }[];
}

function statusOf(status: ServerStatus): Pick<McpServerReport, "status" | "reason"> {
  if (status.state === "connected") return { status: "connected" };
  if (status.state === "disabled") return { status: "disabled" };
  return { status: "failed", reason: status.state === "failed" ? status.reason : "it did not start" };
}

/** Starts every enabled server of the workspace, reports them, stops them. Never throws for a server that fails. */
export async function inspectMcpServers(env: NodeJS.ProcessEnv, workspace: string): Promise<McpServerReport[]> {
  const declared = resolveMcpConfig(env, workspace);
  // An untrusted server is listed, not started: listing must not run what trusting is meant to check first.
  const hub = new McpHub(
    declared.filter((s) => s.trusted || s.disabled),
    { roots: [workspace] },
  );
  try {
    await hub.start();
    const started = new Map(hub.statuses().map((s) => [s.server.name, s]));
    return declared.map((server) => {
      const running = started.get(server.name);
      const status = running
        ? statusOf(running.status)
        : { status: "untrusted" as const, reason: "declared by the project and not trusted yet (mini-cursor mcp trust)" };
      const tools = (running?.tools ?? []).map((t) => ({
        name: t.name,
        original: t.original,
        renamed: t.renamed === true,
        readOnly: t.readOnly,
        description: t.description.split("\n", 1)[0] ?? "",
      }));
      return { name: server.name, source: server.source, transport: server.transport, runs: runsWhat(server), ...status, tools };
    });
  } finally {
    await hub.close();
  }
}

export function formatMcpReport(servers: readonly McpServerReport[]): string {
  if (servers.length === 0) return "No MCP servers are configured (mcpServers in .mcp.json, mini-cursor.json or the user config).";
  const lines = [`MCP servers (${servers.length}):`];
  for (const s of servers) {
    const status = s.status === "failed" ? `failed: ${s.reason ?? ""}` : s.status === "untrusted" ? "untrusted: not started (mini-cursor mcp trust)" : s.status;
    const count = s.status === "connected" ? `, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}` : "";
    lines.push(`  ${s.name}  ${status}  (${s.transport}, from ${s.source}${count})`);
    lines.push(`    runs: ${s.runs}`);
    const width = Math.max(0, ...s.tools.map((t) => t.name.length));
    for (const t of s.tools) {
      const renamed = t.renamed ? ` [renamed: "${t.original}" has the same safe name as another tool]` : "";
      lines.push(`    ${t.name.padEnd(width)}  ${t.readOnly ? "read-only" : "changes  "}  ${t.description.slice(0, 80)}${renamed}`.trimEnd());
    }
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
  if (sub === undefined) throw new UsageError("mcp needs a command: list, trust, untrust, login or logout (see mini-cursor mcp --help)");
  if (!["list", "trust", "untrust", "login", "logout"].includes(sub))
    throw new UsageError(`unknown mcp command "${sub}"; the commands are: list, trust, untrust, login, logout`);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  if (sub === "login") return mcpLoginCommand(rest, workspace, io);
  if (sub === "logout") return mcpLogoutCommand(rest, workspace, io);
  if (sub !== "list") return mcpTrustCommand(sub === "trust", rest, workspace, values.json === true, io);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ""}" for mini-cursor mcp list`);
  const servers = await inspectMcpServers(io.env, workspace);
  io.stdout.write(values.json ? `${JSON.stringify(servers, null, 2)}\n` : `${formatMcpReport(servers)}\n`);
  return EXIT.done;
}
