import os from "node:os";
import type pg from "pg";
import type { PostgresTarget } from "../../platform/config/database-settings.js";
import { ConfigError } from "../../platform/config-file.js";
import { errorMessage } from "../../platform/error-info.js";

/** The driver, loaded only when MINI_CURSOR_DATABASE_URL is set: a SQLite workspace never pays for it. */
export async function loadPg(): Promise<typeof pg> {
  return (await import("pg")).default;
}

/** Node's words for a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "EAI_AGAIN"]);
/** SQLSTATEs of a server that is gone or going: connection exceptions (08), shutdown (57P01-57P03). */
const SERVER_GONE = /^(08|57P0[123])/;
/** The driver's own messages for a connection cut or timed out (no code on these). */
const DRIVER_CUT = /Connection terminated|connection timeout|timeout expired|not queryable|Connection ended|terminating connection/i;
/** SQLSTATEs that mean the settings are wrong: authentication (28), no such database (3D000). */
const REFUSED_LOGIN = /^(28|3D000)/;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The server is unreachable or dropped the connection (as opposed to a bug or a bad query). */
export function isConnectionError(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (NETWORK_CODES.has(code) || SERVER_GONE.test(code))) return true;
  return error instanceof Error && DRIVER_CUT.test(error.message);
}

/** The error's words without anything from the URL (the driver's messages never hold the password; still, be sure). */
export function reasonOf(error: unknown, target: PostgresTarget): string {
  const text = errorMessage(error);
  const password = passwordOf(target.url);
  const code = codeOf(error);
  const clean = password ? text.split(password).join("***") : text;
  return code && !clean.includes(code) ? `${clean} (${code})` : clean;
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return "";
  }
}

/** A database that cannot be used when a command starts: one line naming it (exit 2), never its password. */
export function unavailableError(error: unknown, target: PostgresTarget): ConfigError | null {
  const code = codeOf(error);
  if (isConnectionError(error))
    return new ConfigError(`cannot reach the session database ${target.label} (${reasonOf(error, target)}); start it or fix ${target.from}`);
  if (code !== undefined && REFUSED_LOGIN.test(code))
    return new ConfigError(`the session database ${target.label} refused the connection: ${reasonOf(error, target)}; fix ${target.from}`);
  return null;
}

/** Who a connection is, as PostgreSQL shows it (pg_stat_activity): names the holder of a session's lock. */
export function applicationName(): string {
  return `mini-cursor pid ${process.pid} on ${os.hostname()}`.slice(0, 63);
}

/**
 * A pool for one command. A connection the server drops emits 'error' (on the pool when idle, on the client itself
 * when checked out, e.g. inside the saver's transaction); without a listener Node would end the process with a
 * stack trace, so every one has a listener and the query in flight, or the next one, reports the failure.
 */
export async function openPool(target: PostgresTarget): Promise<pg.Pool> {
  const { Pool } = await loadPg();
  const pool = new Pool({ connectionString: target.url, connectionTimeoutMillis: 10_000, keepAlive: true, application_name: applicationName(), max: 4 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw unavailableError(error, target) ?? error;
  }
  return pool;
}
