/** The command line of a local Chroma server process, and how to recognise one. */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { leasesDir } from "./leases.js";
import { serverPaths } from "./state-file.js";
import { ChromaUnavailableError } from "./types.js";

/**
 * How the server process is started: `node -e <SERVER_SOURCE> <binding> run ...`, which calls the platform's Rust
 * binding of `chromadb` directly. The package's own CLI (dist/cli.mjs) does the same after importing the whole
 * JavaScript client and semver, which cost each start ~50 ms of CPU and wall time on the cores the session needs.
 * The marker names these processes in `ps` and lets isChromaServerCommand tell them from a reused pid.
 */
const SERVER_MARKER = "mini-cursor-chroma-server";

/**
 * Stops an idle server from inside it (a worker thread: the binding's cli() never returns to the main thread). Every
 * `pollMs` it looks for leases of live processes (src/memory/chroma/leases.ts); after `idleMs` without one it takes
 * the start lock the way src/platform/file-lock.ts creates locks (a whole file linked into place, naming this pid), so
 * no session can be reusing the server meanwhile, looks once more, removes the state file and ends the server. The
 * lock stays behind naming this process: it turns stale exactly when the server is gone, so a session that wants
 * Chroma then starts a new server and never meets this one half shut down. A data dir that is gone ends it at once.
 * With an idle time of 0 the last session stops the server itself; the thread is then only for sessions that could
 * not (killed with SIGKILL, out of memory, a power cut of the terminal): it ends the server at the first look that
 * finds no live session, instead of leaving a server without a token listening until some later session reuses it.
 */
const WATCHDOG_SOURCE = `
const fs = require("node:fs"), { randomBytes } = require("node:crypto");
const w = require("node:worker_threads").workerData;
const { leases, stateFile, lockFile } = w;
// src/platform/process-alive.ts, again: this runs as plain JavaScript inside the server, without our modules.
const alive = (pid) => {
  try { process.kill(pid, 0); } catch (e) { if (e.code !== "EPERM") return false; }
  try { const s = fs.readFileSync("/proc/" + pid + "/stat", "utf8"); const st = s[s.lastIndexOf(")") + 2]; return st !== "Z" && st !== "X"; } catch { return true; }
};
const inUse = () => {
  let names = [];
  try { names = fs.readdirSync(leases); } catch {}
  return names.some((n) => { const pid = Number(n.split("-")[0]); return Number.isInteger(pid) && pid > 0 && alive(pid); });
};
let ending = false;
const end = () => {
  if (ending) return;
  ending = true;
  process.kill(w.pid, "SIGTERM");
  setTimeout(() => process.kill(w.pid, "SIGKILL"), 5000).unref();
};
let idleSince = Date.now();
setInterval(() => {
  if (!fs.existsSync(w.dataDir)) return end();
  if (inUse()) { idleSince = Date.now(); return; }
  if (Date.now() - idleSince < w.idleMs) return;
  const temp = lockFile + "." + w.pid + "." + randomBytes(6).toString("hex");
  try { fs.writeFileSync(temp, w.pid + ":" + randomBytes(8).toString("hex")); fs.linkSync(temp, lockFile); } catch { return; } finally { fs.rmSync(temp, { force: true }); }
  if (inUse()) { fs.rmSync(lockFile, { force: true }); idleSince = Date.now(); return; }
  try { if (JSON.parse(fs.readFileSync(stateFile, "utf8")).pid === w.pid) fs.rmSync(stateFile, { force: true }); } catch {}
  end();
}, w.pollMs);
`;

const SERVER_SOURCE = `/* ${SERVER_MARKER} */
const [binding, watch, ...args] = process.argv.slice(1);
const idle = JSON.parse(watch);
if (idle) new (require("node:worker_threads").Worker)(${JSON.stringify(WATCHDOG_SOURCE)}, { eval: true, workerData: { ...idle, pid: process.pid } });
require(binding).cli(["chroma", ...args]);`;

/**
 * How long a server stays up with no session using it. 0: its sessions stop it with the last of them, and the
 * server ends itself only once none is alive (they were killed before they could). Absent: no watching at all.
 */
export interface IdleStop {
  dataDir: string;
  idleMs: number;
  /** How often the server looks for sessions (default 1 s). */
  pollMs?: number;
}

export interface ServerCommand {
  /** Arguments for node, before Chroma's own (`run --path ...`). */
  args: string[];
  /**
   * Whether the server stops itself when idle, so its sessions leave it running (only when run through the binding,
   * with an idle time above 0). A server watched with an idle time of 0 says false: its last session stops it.
   */
  stopsWhenIdle: boolean;
}

const DEFAULT_POLL_MS = 1_000;

/** chromadb's binding package per platform, as its CLI picks it (dist/cli.mjs); none elsewhere. */
const BINDINGS: Record<string, string> = {
  "darwin-arm64": "chromadb-js-bindings-darwin-arm64",
  "darwin-x64": "chromadb-js-bindings-darwin-x64",
  "linux-arm64": "chromadb-js-bindings-linux-arm64-gnu",
  "linux-x64": "chromadb-js-bindings-linux-x64-gnu",
  "win32-arm64": "chromadb-js-bindings-win32-arm64-msvc",
};

/** The node arguments that run a Chroma server: the binding directly, or chromadb's CLI where it cannot be found. */
export function chromaServerCommand(idle?: IdleStop): ServerCommand {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve("chromadb");
  } catch {
    throw new ChromaUnavailableError("the chromadb package is not installed; reinstall mini-cursor's dependencies");
  }
  const binding = BINDINGS[`${process.platform}-${process.arch}`];
  if (binding) {
    try {
      // Resolved from chromadb's own folder: the binding is its dependency, wherever npm put it.
      // The files it watches and takes, named by the modules that own them.
      const { stateFile, lockFile } = serverPaths(idle?.dataDir ?? "");
      const watch = idle
        ? JSON.stringify({
            dataDir: idle.dataDir,
            leases: leasesDir(idle.dataDir),
            stateFile,
            lockFile,
            idleMs: Math.max(0, idle.idleMs),
            pollMs: idle.pollMs ?? DEFAULT_POLL_MS,
          })
        : "null";
      return { args: ["-e", SERVER_SOURCE, createRequire(entry).resolve(binding), watch], stopsWhenIdle: idle !== undefined && idle.idleMs > 0 };
    } catch {
      // Not installed next to chromadb: its CLI says what is missing.
    }
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    // chromadb's `exports` hide package.json, so walk up from the main entry to its root.
    const cli = path.join(dir, "dist", "cli.mjs");
    if (isChromadbRoot(dir) && fs.existsSync(cli)) return { args: [cli], stopsWhenIdle: false };
  }
  throw new ChromaUnavailableError(`cannot find the chromadb CLI near ${entry}; reinstall mini-cursor's dependencies`);
}

/** Whether a process command line (NUL-separated, from /proc) is a Chroma server that mini-cursor starts. */
export function isChromaServerCommand(cmdline: string): boolean {
  return cmdline.includes(SERVER_MARKER) || cmdline.includes("cli.mjs");
}

function isChromadbRoot(dir: string): boolean {
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    return typeof pkg === "object" && pkg !== null && (pkg as { name?: unknown }).name === "chromadb";
  } catch {
    return false;
  }
}
