/**
 * A real Chroma server for tests, on a free loopback port, in a temp dir (or a given dir, so data can be checked
 * across restarts). Callers stop it in afterEach/afterAll; stop() is idempotent and makes sure the pid is gone.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startLocalServer, stopLocalServer, type LocalServer } from "../../src/memory/chroma/local-process.js";
import { processAlive, removeServerStateIfOwned, serverPaths, writeServerState } from "../../src/memory/chroma/state-file.js";
import type { ChromaEndpoint } from "../../src/memory/chroma/types.js";

export interface TestChroma {
  /** http://127.0.0.1:<port>; the same after restart() unless the port was taken meanwhile. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Stops the server (SIGTERM, then SIGKILL) and deletes the temp dir if this helper made it. */
  stop(): Promise<void>;
  /** Stops and starts the server on the same data (and, if possible, the same port). */
  restart(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

/** The test server as an endpoint of the default tenant and database, without a token, that nothing stops. */
export function testChromaEndpoint(chroma: Pick<TestChroma, "url">): ChromaEndpoint {
  const url = new URL(chroma.url);
  return {
    url: chroma.url,
    host: url.hostname,
    port: Number(url.port),
    ssl: false,
    tenant: "default_tenant",
    database: "default_database",
    authHeaders: () => ({}),
    startedByUs: false,
    stop: async () => undefined,
  };
}

export async function startTestChroma(dir?: string): Promise<TestChroma> {
  const ownsDir = dir === undefined;
  const dataDir = dir ?? (await realpath(await mkdtemp(path.join(os.tmpdir(), "mini-cursor-chroma-"))));
  const paths = serverPaths(dataDir);
  fs.mkdirSync(paths.chromaDir, { recursive: true });

  let server: LocalServer | null = null;
  let stopped = false;
  // If the worker exits without reaching afterAll (a crash in a hook), still take the server down.
  const onExit = (): void => {
    if (server !== null && processAlive(server.pid)) process.kill(server.pid, "SIGKILL");
  };
  process.on("exit", onExit);

  const launch = async (preferredPort?: number): Promise<void> => {
    const started = await startLocalServer({
      chromaDir: paths.chromaDir,
      logFile: paths.logFile,
      env: process.env,
      startTimeoutMs: START_TIMEOUT_MS,
      preferredPort,
    });
    server = started;
    // Written like ensureChromaServer does, so an ensureChromaServer on this dir reuses the server, not races it.
    writeServerState(dataDir, { pid: started.pid, port: started.port, startedAt: Date.now() });
  };

  const halt = async (): Promise<void> => {
    const current = server;
    if (current === null) return;
    await stopLocalServer(current);
    if (processAlive(current.pid)) process.kill(current.pid, "SIGKILL");
    removeServerStateIfOwned(dataDir, current.pid);
  };

  try {
    await launch();
  } catch (error) {
    process.off("exit", onExit);
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const portOf = (): number => {
    if (server === null) throw new Error("startTestChroma: no server");
    return server.port;
  };

  return {
    get url() {
      return `http://127.0.0.1:${portOf()}`;
    },
    get port() {
      return portOf();
    },
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await halt();
      process.off("exit", onExit);
      if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    },
    async restart() {
      if (stopped) throw new Error("startTestChroma: restart() after stop()");
      const port = portOf();
      await halt();
      await launch(port);
    },
  };
}

/** Pids of Chroma servers running on this data dir (their command line has `run --path <dataDir>/chroma`). */
export function chromaServerPids(dataDir: string): number[] {
  const result = spawnSync("pgrep", ["-f", `run --path ${dataDir}/chroma`], { encoding: "utf8" });
  return result.stdout.split("\n").filter(Boolean).map(Number);
}
