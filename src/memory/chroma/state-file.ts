/**
 * Where a local Chroma server keeps its files under the memory data dir, and the small state file that lets
 * later processes find (and reuse) a server another process started.
 */
import fs from "node:fs";
import path from "node:path";
import { replaceFileSync } from "../../platform/replace-file.js";

export interface ServerState {
  pid: number;
  port: number;
  startedAt: number;
  /** The server ends itself when idle (server-command.ts): whoever lets go of it last leaves it running. */
  stopsWhenIdle?: boolean;
}

export interface ServerPaths {
  /** Chroma's own persistence folder. */
  chromaDir: string;
  stateFile: string;
  lockFile: string;
  logFile: string;
}

export function serverPaths(dataDir: string): ServerPaths {
  return {
    chromaDir: path.join(dataDir, "chroma"),
    stateFile: path.join(dataDir, "chroma-server.json"),
    lockFile: path.join(dataDir, "chroma-server.lock"),
    logFile: path.join(dataDir, "chroma-server.log"),
  };
}

/** Whether a local Chroma has ever kept data here: without its database there are no memories to list. */
export function hasLocalData(dataDir: string): boolean {
  return fs.existsSync(path.join(serverPaths(dataDir).chromaDir, "chroma.sqlite3"));
}

/** The state file's contents, or null when it is missing or not a valid state (a torn or foreign file). */
export function readServerState(dataDir: string): ServerState | null {
  let raw: string;
  try {
    raw = fs.readFileSync(serverPaths(dataDir).stateFile, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null) return null;
    const { pid, port, startedAt, stopsWhenIdle } = parsed as Record<string, unknown>;
    if (!isPositiveInt(pid) || !isPositiveInt(port) || typeof startedAt !== "number") return null;
    return { pid, port, startedAt, ...(stopsWhenIdle === true ? { stopsWhenIdle } : {}) };
  } catch {
    return null;
  }
}

/** Writes the state through a temp file and a rename, so readers never see half a file. */
export function writeServerState(dataDir: string, state: ServerState): void {
  const { stateFile } = serverPaths(dataDir);
  replaceFileSync(stateFile, `${JSON.stringify(state)}\n`);
}

/** Removes the state file only if it still names `pid`: a newer server may have replaced ours. */
export function removeServerStateIfOwned(dataDir: string, pid: number): void {
  if (readServerState(dataDir)?.pid === pid) removeServerState(dataDir);
}

export function removeServerState(dataDir: string): void {
  fs.rmSync(serverPaths(dataDir).stateFile, { force: true });
}

export { isProcessAlive as processAlive } from "../../platform/process-alive.js";

function isPositiveInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}
