import { spawn } from "node:child_process";
import { resolveMcpConfig, type McpServerSettings } from "../../../platform/config/index.js";
import { signIn } from "../../../services/mcp/oauth-login.js";
import { deleteOAuth, oauthFile } from "../../../services/mcp/oauth-store.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { CliIo } from "../io.js";

type HttpServer = Extract<McpServerSettings, { transport: "http" }>;

/** The named HTTP server of the workspace's resolved configuration; a bad name is one line, exit 2. */
function httpServer(names: readonly string[], workspace: string, io: CliIo, command: "login" | "logout"): HttpServer {
  const [name, extra] = names;
  if (name === undefined) throw new UsageError(`mcp ${command} needs the name of an HTTP MCP server (see mini-cursor mcp list)`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" for mini-cursor mcp ${command}`);
  const servers = resolveMcpConfig(io.env, workspace);
  const found = servers.find((s) => s.name === name);
  if (!found) {
    const known = servers.filter((s) => s.transport === "http").map((s) => s.name);
    throw new UsageError(`no MCP server "${name}" is configured for ${workspace}${known.length > 0 ? ` (its HTTP servers: ${known.join(", ")})` : ""}`);
  }
  if (found.transport !== "http") throw new UsageError(`the MCP server "${name}" runs a command (stdio): only HTTP servers have a sign-in`);
  return found;
}

/**
 * Opens the sign-in page in a browser when one can show (macOS, or a graphical session on Linux), detached and
 * silent; the printed URL is what counts, so failing to open one is no failure.
 */
function openBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const opener = process.platform === "darwin" ? "open" : process.platform === "linux" && (env.DISPLAY || env.WAYLAND_DISPLAY) ? "xdg-open" : undefined;
  if (!opener) return;
  try {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true, env });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // See above.
  }
}

/**
 * `mcp login NAME`: the OAuth sign-in to an HTTP server (src/services/mcp/oauth-login.ts) with the URL printed, a
 * browser opened when possible, and the tokens stored for sessions. Ctrl-C ends it cleanly (exit 130).
 */
export async function mcpLoginCommand(names: readonly string[], workspace: string, io: CliIo): Promise<number> {
  const server = httpServer(names, workspace, io, "login");
  if (server.scope === "project" && !server.trusted) {
    throw new UsageError(
      `the MCP server "${server.name}" is declared by the project (${server.source}) and not trusted: run mini-cursor mcp trust ${server.name} first`,
    );
  }
  if (Object.keys(server.headers).some((h) => h.toLowerCase() === "authorization")) {
    throw new UsageError(`the MCP server "${server.name}" sends its own Authorization header (${server.source}): it does not use a sign-in`);
  }
  if (server.problem) throw new UsageError(`the MCP server "${server.name}" cannot be reached as configured: ${server.problem}`);
  const cancel = new AbortController();
  const onSignal = () => cancel.abort();
  // A listener of ours: main.ts's own then leaves the signal to this command, which stops the sign-in and exits 130.
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const result = await signIn(server, {
      env: io.env,
      signal: cancel.signal,
      onAuthorizationUrl: (url) => {
        io.stdout.write(`Open this URL to sign in to ${server.name}: ${url.href}\n`);
        openBrowser(url.href, io.env);
      },
    });
    if (result.ok) {
      io.stdout.write(`Signed in to ${server.name}; tokens are kept in ${result.file} (owner-only).\n`);
      return EXIT.done;
    }
    if (result.cancelled) {
      io.stderr.write(`mini-cursor: sign-in to ${server.name} cancelled.\n`);
      return EXIT.interrupted;
    }
    io.stderr.write(`mini-cursor: sign-in to ${server.name} failed: ${result.reason}\n`);
    return EXIT.failed;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** `mcp logout NAME`: deletes the server's stored sign-in (registration and tokens). */
export function mcpLogoutCommand(names: readonly string[], workspace: string, io: CliIo): number {
  const server = httpServer(names, workspace, io, "logout");
  const file = oauthFile(io.env, server.url);
  io.stdout.write(deleteOAuth(io.env, server.url) ? `Signed out of ${server.name}: removed ${file}.\n` : `No sign-in is stored for ${server.name}.\n`);
  return EXIT.done;
}
