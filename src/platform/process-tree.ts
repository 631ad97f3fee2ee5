import { readdirSync, readFileSync } from "node:fs";
import { isProcessAlive } from "./process-alive.js";

/**
 * Finding and killing everything a command started. A process group alone is not enough (`setsid` leaves
 * it) and a parent-pid walk loses processes whose parent already exited (they are re-parented), so three
 * sources are combined: the ppid tree, the process group, and a marker variable in the initial environment
 * (`/proc/<pid>/environ`) that every process the command starts inherits unless it clears its environment.
 * Linux-only (/proc); elsewhere only the process group is signalled.
 */
export interface ProcessTreeTarget {
  /** The command's main process; it was spawned detached, so this is also its process group id. */
  pid: number;
  /** NAME=VALUE put in the command's environment. */
  marker?: { name: string; value: string };
}

interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, state: fields[0] ?? "?", ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

export { isProcessAlive };

function hasMarker(pid: number, marker: { name: string; value: string }): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`${marker.name}=${marker.value}`);
  } catch {
    return false;
  }
}

/** Every live process the command started (not including `target.pid` itself), by all three sources. */
export function findCommandProcesses(target: ProcessTreeTarget): number[] {
  const stats = allPids()
    .map(readStat)
    .filter((s): s is ProcStat => s !== undefined && s.state !== "Z" && s.state !== "X");
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const found = new Set<number>();
  const queue = [...(children.get(target.pid) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  for (const s of stats) {
    if (s.pgid === target.pid) found.add(s.pid);
    else if (target.marker && hasMarker(s.pid, target.marker)) found.add(s.pid);
  }
  // Never signal ourselves, whatever /proc said.
  found.delete(process.pid);
  found.delete(target.pid);
  return [...found];
}

function signal(pids: Iterable<number>, groupId: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-groupId, sig);
  } catch {
    // The group is already empty.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to the main process, its group and everything found, then SIGKILL to whatever is still alive after
 * `graceMs`. Returns the pids (other than the main one) that were found alive and signalled.
 */
export async function killProcessTree(target: ProcessTreeTarget, graceMs = 1000): Promise<number[]> {
  const signalled = new Set(findCommandProcesses(target));
  const mainAlive = isProcessAlive(target.pid);
  if (signalled.size === 0 && !mainAlive) {
    signal([], target.pid, "SIGKILL");
    return [];
  }
  signal(mainAlive ? [target.pid, ...signalled] : signalled, target.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  for (;;) {
    // Keep looking: processes may fork while being terminated.
    for (const pid of findCommandProcesses(target)) {
      if (!signalled.has(pid)) {
        signalled.add(pid);
        signal([pid], target.pid, "SIGTERM");
      }
    }
    const alive = [target.pid, ...signalled].filter(isProcessAlive);
    if (alive.length === 0) break;
    if (Date.now() >= deadline) {
      signal(alive, target.pid, "SIGKILL");
      break;
    }
    await sleep(25);
  }
  return [...signalled];
}

/** Synchronous last resort for when our own process exits while commands still run. */
export function killProcessTreeNow(target: ProcessTreeTarget): void {
  signal(findCommandProcesses(target), target.pid, "SIGKILL");
  signal([target.pid], target.pid, "SIGKILL");
}
