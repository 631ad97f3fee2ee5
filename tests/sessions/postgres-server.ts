import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { freePort } from "../helpers/free-port.js";

/**
 * A real PostgreSQL for tests: Debian's server binaries (any version under /usr/lib/postgresql), a fresh cluster in a
 * temporary folder, trust authentication on 127.0.0.1 and a free port. initdb refuses to run as root, so as root the
 * cluster belongs to the `postgres` user and its commands run as that user. `destroy` stops it and removes the folder.
 */
export interface PostgresClient {
  port: number;
  /** A URL for `database` (the password is ignored by trust authentication: it is there to be hidden in messages). */
  url(database: string): string;
  /** A new empty database with a unique name; returns its URL. */
  freshDatabase(): Promise<string>;
  query<R extends pg.QueryResultRow>(database: string, sql: string, values?: unknown[]): Promise<R[]>;
}

/** A server this test owns: it can also stop, start and remove it. */
export interface PostgresServer extends PostgresClient {
  /** Fast shutdown: connected clients are cut off, as when a database server goes away. */
  stop(): void;
  start(): void;
  destroy(): void;
}

export const TEST_PASSWORD = "s3cret-pw";

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)");
  return path.join(root, newest, "bin");
}

/** URLs, fresh databases and queries on the server at `port`. */
export function postgresAt(port: number): PostgresClient {
  const client: PostgresClient = {
    port,
    url: (database) => `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:${port}/${database}`,
    async freshDatabase() {
      // Unique across the files that share one server (a worker's pid is reused by the files it runs one after another).
      const name = `mc_test_${process.pid}_${randomBytes(6).toString("hex")}`;
      await client.query("postgres", `CREATE DATABASE ${name}`);
      return client.url(name);
    },
    async query<R extends pg.QueryResultRow>(database: string, sql: string, values: unknown[] = []) {
      const connection = new pg.Client({ connectionString: client.url(database) });
      await connection.connect();
      try {
        return (await connection.query<R>(sql, values)).rows;
      } finally {
        await connection.end();
      }
    },
  };
  return client;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mini-cursor-pg-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  const run = (tool: string, args: string[]) => {
    const [cmd, full] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    const result = spawnSync(cmd, full, { encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0)
      throw new Error(`${tool} failed (${String(result.status)}): ${result.stderr}${fs.existsSync(log) ? fs.readFileSync(log, "utf8").slice(-2000) : ""}`);
  };
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const port = await freePort();
  try {
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", log, "-w", "-t", "60", "start"]);
    const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
    start();
    const server: PostgresServer = {
      ...postgresAt(port),
      stop,
      start,
      destroy() {
        try {
          stop();
        } catch {
          // Already stopped (or never started): the folder still goes.
        }
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
    return server;
  } catch (error) {
    spawnSync(
      asRoot ? "runuser" : path.join(bin, "pg_ctl"),
      asRoot ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"] : ["-D", data, "-m", "immediate", "stop"],
    );
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** One server for the calling test file (started before its tests, destroyed after them, also on failure). */
export function usePostgres(): { readonly server: PostgresServer } {
  let current: PostgresServer | null = null;
  beforeAll(async () => {
    current = await startPostgres();
  }, 120_000);
  afterAll(() => {
    current?.destroy();
    current = null;
  });
  return {
    get server() {
      if (!current) throw new Error("usePostgres: the server exists only inside the file's tests");
      return current;
    },
  };
}

/**
 * The server the e2e-postgres project starts once for all its files (tests/sessions/shared-postgres.ts). A file that
 * stops or restarts the server on purpose uses usePostgres() instead.
 */
export function sharedPostgres(): PostgresClient {
  return postgresAt(inject("postgresPort"));
}
