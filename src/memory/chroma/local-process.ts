/**
 * Runs the Chroma server that ships with the `chromadb` package as a child process: find its CLI, spawn it on a
 * free loopback port, wait for the heartbeat, and stop it.
 */
import fs from "node:fs";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { probeHeartbeat } from "./heartbeat.js";
import { listensOn } from "./port-owner.js";
import { launch, type LaunchExit, type Launched } from "../../platform/launcher/index.js";
import { chromaServerCommand, type IdleStop, type ServerCommand } from "./server-command.js";
import { chromaServerEnv } from "./server-env.js";
import { logTail } from "./server-log.js";
import { ChromaUnavailableError, LOCAL_HOST } from "./types.js";

const POLL_MS = 50;
const PROBE_TIMEOUT_MS = 500;
/** Another process can grab the port between our probe and Chroma's bind; try a few fresh ports. */
const PORT_ATTEMPTS = 3;
const STOP_GRACE_MS = 5_000;

export interface LocalServer {
  /** Undefined when it could not be started at all (the log says why). */
  process: Launched | undefined;
  pid: number;
  port: number;
  exited: Promise<void>;
  /** How it ended, once it has. */
  exit?: LaunchExit;
  /** It stops itself once no session has used it for a while (StartOptions.idle); its starter leaves it running. */
  stopsWhenIdle: boolean;
}

export interface StartOptions {
  chromaDir: string;
  logFile: string;
  env: NodeJS.ProcessEnv;
  startTimeoutMs: number;
  /** Try this port first (a restart that keeps its URL); falls back to a free one if it is taken. */
  preferredPort?: number;
  /** Keep running after the last session, this long (server-command.ts); absent: stopped with the last session. */
  idle?: IdleStop;
}

export async function startLocalServer(options: StartOptions): Promise<LocalServer> {
  const command = chromaServerCommand(options.idle);
  const deadline = Date.now() + options.startTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    const port = attempt === 1 && options.preferredPort ? options.preferredPort : await freeLoopbackPort();
    const server = await spawnServer(command, port, options);
    const outcome = await waitUntilUp(server, deadline);
    if (outcome === "up") return server;
    if (outcome === "taken" && attempt < PORT_ATTEMPTS + (options.preferredPort ? 1 : 0)) {
      // Another process's server answers on the port picked for ours (it took the port meanwhile): try another.
      await stopLocalServer(server);
      continue;
    }
    if (outcome === "timeout") {
      await stopLocalServer(server);
      throw new ChromaUnavailableError(`the local Chroma server did not answer within ${options.startTimeoutMs / 1000} s (log: ${options.logFile})`);
    }
    await server.exited;
    const tail = logTail(options.logFile);
    if (/is not available/.test(tail) && attempt < PORT_ATTEMPTS + (options.preferredPort ? 1 : 0)) continue;
    const how = server.exit?.signal ?? `code ${String(server.exit?.code ?? null)}`;
    throw new ChromaUnavailableError(`the local Chroma server exited while starting (${how}): ${tail || "no output"} (log: ${options.logFile})`);
  }
}

/** SIGTERM, then SIGKILL if it has not exited after a grace period. Resolves once it is gone. */
export async function stopLocalServer(server: LocalServer): Promise<void> {
  if (server.exit || !server.process) return;
  server.process.kill("SIGTERM");
  if (await exitsWithin(server, STOP_GRACE_MS)) return;
  server.process.kill("SIGKILL");
  await exitsWithin(server, STOP_GRACE_MS);
}

async function exitsWithin(server: LocalServer, ms: number): Promise<boolean> {
  // Cancel the timer once the child exits, or it would keep the process alive for the whole grace period.
  const abort = new AbortController();
  const timeout = sleep(ms, false, { signal: abort.signal }).catch(() => true);
  const exited = await Promise.race([server.exited.then(() => true), timeout]);
  abort.abort();
  return exited;
}

/**
 * Started through the process launcher, like every child (src/platform/launcher): spawning from this process would
 * fork all of it, and the server starts when the session is already large. Its own process group (a Ctrl-C in the
 * terminal goes to the CLI, which decides when memory stops), output to the log file, and it never holds the CLI open.
 */
async function spawnServer(command: ServerCommand, port: number, options: StartOptions): Promise<LocalServer> {
  try {
    fs.closeSync(fs.openSync(options.logFile, "w"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ChromaUnavailableError(`cannot write the Chroma log ${options.logFile} (${code}); make its folder writable`);
  }
  const args = [...command.args, "run", "--path", options.chromaDir, "--host", LOCAL_HOST, "--port", String(port)];
  let started: Launched;
  try {
    started = await launch(process.execPath, args, { env: chromaServerEnv(options.env), detached: true, background: true, outputFile: options.logFile });
  } catch (error) {
    fs.appendFileSync(options.logFile, `spawn failed: ${(error as Error).message}\n`);
    return { process: undefined, pid: -1, port, exited: Promise.resolve(), exit: { code: null, signal: null }, stopsWhenIdle: false };
  }
  const server: LocalServer = {
    process: started,
    pid: started.pid,
    port,
    stopsWhenIdle: command.stopsWhenIdle,
    exited: started.exited.then((exit) => {
      server.exit = exit;
    }),
  };
  return server;
}

/** "taken": something answers on the port, but not our server (see port-owner.ts). */
async function waitUntilUp(server: LocalServer, deadline: number): Promise<"up" | "exited" | "timeout" | "taken"> {
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  const url = `http://${LOCAL_HOST}:${server.port}`;
  while (Date.now() < deadline) {
    if (exited || server.pid < 0) return "exited";
    if ((await probeHeartbeat(url, PROBE_TIMEOUT_MS)).ok) return listensOn(server.pid, server.port) === false ? "taken" : "up";
    if (exited) return "exited";
    await sleep(POLL_MS);
  }
  return "timeout";
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, LOCAL_HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("no free TCP port on 127.0.0.1"))));
    });
  });
}
