import fs from "node:fs";
import { ConfigError } from "../config-file.js";
import { envValue, projectConfigPath, userConfigPath } from "./env.js";
import { errorMessage } from "../error-info.js";

/*
 * Where sessions live: the workspace's SQLite file (the default), or PostgreSQL when MINI_CURSOR_DATABASE_URL (or
 * `database` in mini-cursor.json, then in the user config) is a postgres:// URL. Kept apart from the file schema:
 * `sessions` reads it and must load no zod (the commands that run sessions validate the whole file anyway).
 */

export interface PostgresTarget {
  kind: "postgres";
  /** The URL as given: only ever handed to the driver, never printed (it may hold a password). */
  url: string;
  /** host:port/dbname, for messages. */
  label: string;
  /** Where it was set, for errors about it. */
  from: string;
}

const PROTOCOLS = new Set(["postgres:", "postgresql:"]);

/** A postgres:// URL checked and labelled; a ConfigError (usage, exit 2) naming `from` otherwise, never echoing a password. */
export function postgresTarget(url: string, from: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${from} is not a valid URL; expected postgres://USER:PASSWORD@HOST:PORT/DBNAME`);
  }
  if (!PROTOCOLS.has(parsed.protocol)) {
    throw new ConfigError(`${from} must be a postgres:// or postgresql:// URL, got ${parsed.protocol}// (expected postgres://USER:PASSWORD@HOST:PORT/DBNAME)`);
  }
  if (parsed.port !== "" && !/^\d+$/.test(parsed.port)) throw new ConfigError(`${from} has a bad port "${parsed.port}"`);
  const host = parsed.hostname || "localhost";
  const port = parsed.port || "5432";
  const dbname = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "postgres";
  return { kind: "postgres", url, label: `${host}:${port}/${dbname}`, from };
}

/** `database` of a config file without validating the rest of it (the run validates the file; a listing need not). */
function fileDatabase(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${errorMessage(error)})`);
  }
  if (typeof json !== "object" || json === null || !("database" in json)) return undefined;
  const value: unknown = json.database;
  if (typeof value !== "string" || value.trim() === "") throw new ConfigError(`${file}: database: must be a postgres:// URL`);
  return value.trim();
}

/** The PostgreSQL database sessions live in, or null for the workspace's SQLite file. */
export function resolveDatabaseTarget(env: NodeJS.ProcessEnv, workspace: string | undefined): PostgresTarget | null {
  const fromEnv = envValue(env, "MINI_CURSOR_DATABASE_URL");
  if (fromEnv) return postgresTarget(fromEnv, "MINI_CURSOR_DATABASE_URL");
  for (const file of [...(workspace === undefined ? [] : [projectConfigPath(workspace)]), userConfigPath(env)]) {
    const value = fileDatabase(file);
    if (value) return postgresTarget(value, `${file}: database`);
  }
  return null;
}
