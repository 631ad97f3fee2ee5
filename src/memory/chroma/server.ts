/**
 * Finds or starts the Chroma server that long-term memory talks to: a user-given URL (CHROMA_URL or config), or
 * a local server persisted under the memory data dir, shared by every mini-cursor process using that dir.
 */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_CHROMA_DATABASE, DEFAULT_CHROMA_TENANT, type ChromaAccess } from "../../platform/config/memory-settings.js";
import { logger } from "../../platform/logger.js";
import { accessHeaders, refusedError, verifyAccess } from "./access.js";
import { probeHeartbeat } from "./heartbeat.js";
import type { LocalServer } from "./local-process.js";
import { isChromaServerCommand } from "./server-command.js";
import { dropLease, liveLeases, takeLease } from "./leases.js";
import { acquireStartLock } from "./start-lock.js";
import { processAlive, readServerState, removeServerState, removeServerStateIfOwned, serverPaths, writeServerState, type ServerState } from "./state-file.js";
import { ChromaUnavailableError, LOCAL_HOST, type ChromaEndpoint } from "./types.js";
import { errorMessage } from "../../platform/error-info.js";

export { chromaHeartbeat } from "./heartbeat.js";

export interface EnsureChromaOptions {
  /** Memory data dir; a local server keeps its files here. Ignored when `chromaUrl` is set. */
  dataDir: string;
  /** A running server to use instead of a local one (CHROMA_URL or config); "" counts as unset. */
  chromaUrl?: string;
  /** Tenant, database and token of `chromaUrl` (default tenant and database, no token, when absent). */
  access?: ChromaAccess;
  /** How long a local server may take to answer its first heartbeat. */
  startTimeoutMs?: number;
  /** Environment for the local server process. */
  env?: NodeJS.ProcessEnv;
  /**
   * A local server this call starts stays up this long after its last session lets go, for the next one
   * (MINI_CURSOR_CHROMA_IDLE); 0 or absent: the last session stops it.
   */
  idleSeconds?: number;
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const REMOTE_HEARTBEAT_MS = 2_000;
/** A reused server gets a few tries: it may be busy (e.g. compacting) rather than gone. */
const REUSE_PROBES_MS = [500, 1_000, 2_000];
const REUSE_PROBE_GAP_MS = 200;
/** Waiting for another process's start: its own start timeout plus time to write state and let go. */
const LOCK_SLACK_MS = 10_000;

export async function ensureChromaServer(options: EnsureChromaOptions): Promise<ChromaEndpoint> {
  const chromaUrl = options.chromaUrl?.trim();
  if (chromaUrl) return connectRemote(chromaUrl, options.access);
  return ensureLocal(options);
}

/** A local server's access: Chroma's default tenant and database, no token. */
const LOCAL_ACCESS = { tenant: DEFAULT_CHROMA_TENANT, database: DEFAULT_CHROMA_DATABASE, authHeaders: () => ({}) };

/**
 * The endpoint of a user-given URL, without a request: for one quick read (`memory list`), whose own requests say
 * as clearly whether the server answers and takes the token (a missing database it must check when told "no
 * collection": see verifyAccess). Sessions and the other commands connect with the checks below.
 */
export function remoteEndpoint(raw: string, access: ChromaAccess | undefined): ChromaEndpoint {
  const parsed = parseChromaUrl(raw);
  const headers = accessHeaders(access);
  const tenant = access?.tenant ?? DEFAULT_CHROMA_TENANT;
  const database = access?.database ?? DEFAULT_CHROMA_DATABASE;
  return { ...parsed, tenant, database, authHeaders: () => ({ ...headers }), startedByUs: false, stop: async () => undefined };
}

async function connectRemote(raw: string, access: ChromaAccess | undefined): Promise<ChromaEndpoint> {
  const endpoint = remoteEndpoint(raw, access);
  // A proxy in front of Chroma may guard the heartbeat too: send the token with it.
  const probe = await probeHeartbeat(endpoint.url, REMOTE_HEARTBEAT_MS, endpoint.authHeaders());
  if (!probe.ok) throw refusedError(endpoint, probe.status ?? 0) ?? new ChromaUnavailableError(`Chroma at ${endpoint.url} is unreachable (${probe.reason})`);
  await verifyAccess(endpoint, endpoint);
  logger.debug(`memory: using Chroma at ${endpoint.url}, tenant ${endpoint.tenant}, database ${endpoint.database}${access?.token ? ", token set" : ""}`);
  return endpoint;
}

function parseChromaUrl(raw: string): Pick<ChromaEndpoint, "url" | "host" | "port" | "ssl"> {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ChromaUnavailableError(`Chroma URL "${raw}" is not a valid URL; use e.g. http://localhost:8000`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ChromaUnavailableError(`Chroma URL "${raw}" must start with http:// or https://`);
  }
  // The client is built from host/port/ssl alone, so a path or query would be silently dropped.
  if ((parsed.pathname !== "/" && parsed.pathname !== "") || parsed.search !== "" || parsed.username !== "") {
    throw new ChromaUnavailableError(`Chroma URL "${raw}" must be a bare server address such as http://localhost:8000`);
  }
  const ssl = parsed.protocol === "https:";
  // Chroma's conventional port for plain http; an https URL without a port means 443 like any other URL.
  const port = parsed.port ? Number(parsed.port) : ssl ? 443 : 8000;
  const host = parsed.hostname;
  return { url: `${parsed.protocol}//${host}:${port}`, host, port, ssl };
}

async function ensureLocal(options: EnsureChromaOptions): Promise<ChromaEndpoint> {
  const dataDir = path.resolve(options.dataDir);
  const paths = serverPaths(dataDir);
  prepareDataDir(dataDir, paths.chromaDir);
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const release = await withDataDirErrors(dataDir, () => acquireStartLock(paths.lockFile, startTimeoutMs + LOCK_SLACK_MS));
  try {
    const reused = await reuseRunning(dataDir);
    if (reused !== null) return reused;
    const began = Date.now();
    // Loaded only to start one: listing from a running server (`memory list`) must not pay for child_process.
    const { startLocalServer, stopLocalServer } = await import("./local-process.js");
    const idleSeconds = options.idleSeconds ?? 0;
    const server = await startLocalServer({
      chromaDir: paths.chromaDir,
      logFile: paths.logFile,
      env: options.env ?? process.env,
      startTimeoutMs,
      // Watched even with no idle time: a server whose sessions were all killed ends itself (server-command.ts).
      idle: { dataDir, idleMs: idleSeconds * 1000 },
    });
    try {
      writeServerState(dataDir, { pid: server.pid, port: server.port, startedAt: Date.now(), ...(server.stopsWhenIdle ? { stopsWhenIdle: true } : {}) });
    } catch (error) {
      await stopLocalServer(server);
      throw dataDirError(dataDir, error);
    }
    logger.debug(`memory: started Chroma (pid ${server.pid}) on port ${server.port} in ${Date.now() - began} ms`);
    return ownedEndpoint(dataDir, server, stopLocalServer);
  } finally {
    release();
  }
}

/**
 * The local server a state file names when its process is alive and is Chroma, without the start lock, a lease or
 * a heartbeat: for one quick read (`memory list`) that falls back to ensureChromaServer when the server does not
 * answer, e.g. because its last user stopped it meanwhile. Each of those steps is a file or a round trip that cost
 * a fresh process more than the listing itself. Nothing is written: stop() does nothing.
 */
export function peekLocalServer(dataDir: string): ChromaEndpoint | null {
  const state = readServerState(path.resolve(dataDir));
  if (state === null || !processAlive(state.pid) || !isChromaProcess(state)) return null;
  return { url: localUrl(state.port), host: LOCAL_HOST, port: state.port, ssl: false, ...LOCAL_ACCESS, startedByUs: false, stop: async () => undefined };
}

export type StopOutcome = { kind: "none" } | { kind: "in_use"; pid: number; sessions: number } | { kind: "stopped"; pid: number };

/**
 * `memory stop`: ends the local server of a data dir now instead of after its idle time, unless a session is
 * using it (under the start lock, like the last session's stop, so none can be taking it up meanwhile).
 */
export async function stopLocalServerNow(dataDirIn: string): Promise<StopOutcome> {
  const dataDir = path.resolve(dataDirIn);
  if (readServerState(dataDir) === null) return { kind: "none" };
  const release = await withDataDirErrors(dataDir, () => acquireStartLock(serverPaths(dataDir).lockFile, LOCK_SLACK_MS));
  try {
    const state = readServerState(dataDir);
    if (state === null) return { kind: "none" };
    if (!processAlive(state.pid) || !isChromaProcess(state)) {
      removeServerState(dataDir);
      return { kind: "none" };
    }
    const sessions = liveLeases(dataDir).length;
    if (sessions > 0) return { kind: "in_use", pid: state.pid, sessions };
    await stopByPid(state.pid);
    removeServerStateIfOwned(dataDir, state.pid);
    return { kind: "stopped", pid: state.pid };
  } finally {
    release();
  }
}

/** The server a state file names, if it is alive and answering; clears state that names a dead server. */
async function reuseRunning(dataDir: string): Promise<ChromaEndpoint | null> {
  const state = readServerState(dataDir);
  if (state === null) return null;
  const url = localUrl(state.port);
  for (const timeoutMs of REUSE_PROBES_MS) {
    // Checked before every probe: its owner may be stopping it right now.
    if (!processAlive(state.pid)) {
      removeServerState(dataDir);
      return null;
    }
    if ((await probeHeartbeat(url, timeoutMs)).ok) {
      logger.debug(`memory: reusing Chroma (pid ${state.pid}) on port ${state.port}`);
      const lease = takeLease(dataDir);
      const onExit = exitHook(dataDir, lease, state.pid, state.stopsWhenIdle === true);
      process.on("exit", onExit);
      const stop = once(async () => {
        process.off("exit", onExit);
        await releaseShared(dataDir, lease, state);
      });
      return { url, host: LOCAL_HOST, port: state.port, ssl: false, ...LOCAL_ACCESS, startedByUs: false, stop };
    }
    await sleep(REUSE_PROBE_GAP_MS);
  }
  if (!processAlive(state.pid) || !isChromaProcess(state)) {
    // Gone, or the pid was reused by an unrelated process (e.g. after a reboot): the state is stale.
    removeServerState(dataDir);
    return null;
  }
  throw new ChromaUnavailableError(
    `the Chroma server for ${dataDir} (pid ${state.pid}, port ${state.port}) is running but not answering; stop it and try again`,
  );
}

function ownedEndpoint(dataDir: string, server: LocalServer, stopLocalServer: (server: LocalServer) => Promise<void>): ChromaEndpoint {
  const lease = takeLease(dataDir);
  const onExit = exitHook(dataDir, lease, server.pid, server.stopsWhenIdle);
  process.on("exit", onExit);
  const stop = once(async () => {
    process.off("exit", onExit);
    const release = await acquireStartLock(serverPaths(dataDir).lockFile, LOCK_SLACK_MS);
    try {
      dropLease(dataDir, lease);
      // Another session reuses the server: leave it running; the last one to let go stops it, unless it stops itself.
      if (liveLeases(dataDir).length > 0 || server.stopsWhenIdle) return;
      await stopLocalServer(server);
      removeServerStateIfOwned(dataDir, server.pid);
    } catch (error) {
      logger.warn(`memory: could not stop Chroma in ${dataDir}: ${(error as Error).message}`);
    } finally {
      release();
    }
  });
  return { url: localUrl(server.port), host: LOCAL_HOST, port: server.port, ssl: false, ...LOCAL_ACCESS, startedByUs: true, stop };
}

/**
 * Last resort on a normal exit without stop(): signal the server synchronously (it handles SIGTERM cleanly)
 * when no other live process still uses it. Exit handlers cannot wait or lock, so two processes exiting at
 * the same instant may both leave it running; the next session then reuses it and stops it when done.
 */
function exitHook(dataDir: string, lease: string, pid: number, stopsWhenIdle: boolean): () => void {
  return () => {
    try {
      dropLease(dataDir, lease);
      if (liveLeases(dataDir).length > 0 || stopsWhenIdle) return;
      process.kill(pid, "SIGTERM");
      removeServerStateIfOwned(dataDir, pid);
    } catch {
      // Already gone, or the data dir vanished: nothing left to clean.
    }
  };
}

/** A reused server: when this was its last user, stop it (the process that started it may be long gone). */
async function releaseShared(dataDir: string, lease: string, state: ServerState): Promise<void> {
  const release = await acquireStartLock(serverPaths(dataDir).lockFile, LOCK_SLACK_MS);
  try {
    dropLease(dataDir, lease);
    if (liveLeases(dataDir).length > 0) return;
    const current = readServerState(dataDir);
    if (current?.pid !== state.pid || current.stopsWhenIdle || !processAlive(state.pid) || !isChromaProcess(state)) return;
    await stopByPid(state.pid);
    removeServerStateIfOwned(dataDir, state.pid);
  } catch (error) {
    logger.warn(`memory: could not stop Chroma in ${dataDir}: ${(error as Error).message}`);
  } finally {
    release();
  }
}

async function stopByPid(pid: number): Promise<void> {
  process.kill(pid, "SIGTERM");
  for (let waited = 0; waited < 3_000 && processAlive(pid); waited += 50) await sleep(50);
  if (processAlive(pid)) process.kill(pid, "SIGKILL");
  for (let waited = 0; waited < 2_000 && processAlive(pid); waited += 50) await sleep(50);
}

function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= run());
}

function prepareDataDir(dataDir: string, chromaDir: string): void {
  try {
    fs.mkdirSync(chromaDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
}

async function withDataDirErrors<T>(dataDir: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
}

function dataDirError(dataDir: string, error: unknown): Error {
  if (error instanceof ChromaUnavailableError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code ?? errorMessage(error);
  return new ChromaUnavailableError(`cannot write the memory data dir ${dataDir} (${reason}); make it writable or set MINI_CURSOR_DATA_DIR to another folder`);
}

/** On Linux, whether the pid runs a Chroma server as we start them; elsewhere we cannot tell and say no. */
function isChromaProcess(state: ServerState): boolean {
  try {
    return isChromaServerCommand(fs.readFileSync(`/proc/${state.pid}/cmdline`, "utf8"));
  } catch {
    return false;
  }
}

function localUrl(port: number): string {
  return `http://${LOCAL_HOST}:${port}`;
}
