import { isLoopback, serveSessions, ServeError } from "../../serve/serve-sessions.js";
import type { Clock } from "../../../platform/clock.js";
import { COMMON_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { SERVE_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { version } from "../top-level.js";

const SERVE_OPTIONS = { ...COMMON_OPTIONS, host: { type: "string" }, port: { type: "string" } } as const;

/** langgraph dev's port: Studio's "connect to a local server" expects it. */
const DEFAULT_PORT = 2024;

function portOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`--port must be a port number (0 to 65535; 0 picks a free one), got "${value}"`);
  return port;
}

/** `mini-cursor serve`: until Ctrl-C or SIGTERM. */
export async function serveCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, SERVE_OPTIONS, "serve");
  if (values.help) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got "${positionals.join(" ")}"`);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const host = values.host ?? "127.0.0.1";
  const port = portOf(values.port);
  const token = io.env.MINI_CURSOR_SERVE_TOKEN?.trim() || undefined;
  // Sessions hold code, commands and their output: off this machine only with a token.
  if (!isLoopback(host) && !token) throw new UsageError(`--host ${host} is reachable from other machines: set MINI_CURSOR_SERVE_TOKEN first`);
  let serving;
  try {
    serving = await serveSessions({ workspace, env: io.env, clock, host, port, version: version(), ...(token ? { token } : {}) });
  } catch (error) {
    if (!(error instanceof ServeError)) throw error;
    io.stderr.write(`mini-cursor: ${error.message}\n`);
    return EXIT.failed;
  }
  const line = { type: "serving", url: serving.url, workspace, token: token !== undefined };
  io.stdout.write(
    values.json
      ? `${JSON.stringify(line)}\n`
      : `Serving the sessions of ${workspace} at ${serving.url} (LangGraph Agent Server API${token ? ", token required" : ""}). Ctrl-C stops.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await serving.close();
  return EXIT.done;
}
