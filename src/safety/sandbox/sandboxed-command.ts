import { readlinkSync } from "node:fs";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { isProcessAlive } from "../../platform/process-tree.js";
import { buildBwrapArgs, type BwrapOptions } from "./bwrap.js";
import type { CommandSandbox } from "./types.js";

/** What runCommand needs to run a command in bubblewrap: the sandbox options minus the per-command cwd. */
export interface SandboxSpawnOptions extends Omit<BwrapOptions, "cwd"> {
  bwrapPath?: string;
  /**
   * Join this network namespace (the session's shared loopback, see session-network.ts) through `nsenter` instead
   * of a fresh one; only used while the network is not allowed.
   */
  network?: { path: string; nsenterPath?: string };
}

/** The file descriptor on which the wrapper reports how many processes the command left behind. */
export const STRAY_REPORT_FD = 3;
/** What the wrapper writes on the report fd before it starts the command. */
const SANDBOX_STARTED = "started";
/** The file descriptor on which bwrap reports its pid namespace (`--json-status-fd`); not passed to the command. */
export const SANDBOX_STATUS_FD = 4;

/**
 * Runs inside the sandbox as `bash -c WRAPPER name COMMAND`. The command runs as `bash -c COMMAND` (so `$0`
 * and quoting behave as without a sandbox); afterwards the wrapper counts the processes still alive in the pid
 * namespace (other than bwrap's init and itself) and writes the number to the report fd. The kernel kills
 * them right after, when the namespace's init exits; counting first lets the model be told, as without a sandbox.
 * Only builtins run after the command, so the count is not disturbed by the wrapper's own children.
 */
const WRAPPER = [
  // First: the command is about to start (bwrap's mounts are done), so a failure before this line ran nothing.
  `echo ${SANDBOX_STARTED} >&${STRAY_REPORT_FD} 2>/dev/null`,
  // The wrapper's own stderr goes to /dev/null meanwhile: bash would print "Killed" when the command dies
  // of a signal, which a plain `bash -c` does not.
  `{ bash -c "$1" 2>&4 4>&- ${STRAY_REPORT_FD}>&-; } 4>&2 2>/dev/null`,
  "rc=$?",
  "n=0",
  "for p in /proc/[0-9]*; do",
  "  p=${p#/proc/}",
  '  if [ "$p" = 1 ] || [ "$p" = "$$" ]; then continue; fi',
  '  read -r stat < "/proc/$p/stat" 2>/dev/null || continue',
  "  stat=${stat##*) }",
  '  [ "${stat%% *}" = Z ] || n=$((n + 1))',
  "done",
  `echo "$n" >&${STRAY_REPORT_FD} 2>/dev/null`,
  'exit "$rc"',
].join("\n");

export function sandboxedSpawn(command: string, cwd: string, sandbox: SandboxSpawnOptions): { file: string; args: string[] } {
  const { bwrapPath, network, ...options } = sandbox;
  const joins = network !== undefined && !options.allowNetwork;
  // Joined: the namespace is already there (only loopback), so bwrap must not make its own. nsenter execs bwrap,
  // which stays our child: --die-with-parent and the status fd work as without it.
  const args = buildBwrapArgs({ ...options, allowNetwork: options.allowNetwork || joins, cwd });
  const bwrap = [...args, "--json-status-fd", String(SANDBOX_STATUS_FD), "--", "bash", "-c", WRAPPER, "mini-cursor-sandbox", command];
  if (!joins) return { file: bwrapPath ?? "bwrap", args: bwrap };
  return { file: network.nsenterPath ?? "nsenter", args: [`--net=${network.path}`, "--", bwrapPath ?? "bwrap", ...bwrap] };
}

/** Whether the wrapper started the command: bwrap failing before it (a mount it could not make) ran nothing. */
export function sandboxStarted(report: string): boolean {
  return report.startsWith(SANDBOX_STARTED);
}

/** The wrapper's count, or undefined when it did not report (killed, timed out). */
export function parseStrayReport(text: string): number | undefined {
  const last = text.trim().split("\n").pop() ?? "";
  return /^\d+$/.test(last) ? Number(last) : undefined;
}

/** The sandbox's init (its pid 1, as a host pid) and pid namespace, from bwrap's status output. */
export interface SandboxInit {
  pid: number;
  pidNamespace: number;
}

export function parseSandboxStatus(text: string): SandboxInit | undefined {
  const pid = /"child-pid":\s*(\d+)/.exec(text)?.[1];
  const pidNamespace = /"pid-namespace":\s*(\d+)/.exec(text)?.[1];
  return pid && pidNamespace ? { pid: Number(pid), pidNamespace: Number(pidNamespace) } : undefined;
}

/** Checked by namespace too, so a recycled pid is never mistaken for (or killed as) the sandbox's init. */
function initAlive(init: SandboxInit): boolean {
  try {
    return readlinkSync(`/proc/${init.pid}/ns/pid`) === `pid:[${init.pidNamespace}]` && isProcessAlive(init.pid);
  } catch {
    return false;
  }
}

/**
 * Waits until the sandbox's pid namespace is gone. bwrap exits as soon as the command does, while the kernel
 * is still killing what is left in the namespace; the namespace is empty once its init has exited. An init
 * still there after `graceMs` is killed (SIGKILL from outside always reaches it). Returns false if it
 * outlived that too.
 */
export async function waitForSandboxEnd(init: SandboxInit, graceMs: number): Promise<boolean> {
  let deadline = Date.now() + graceMs;
  let killed = false;
  while (initAlive(init)) {
    if (Date.now() >= deadline) {
      if (killed) return false;
      killed = true;
      deadline = Date.now() + graceMs;
      try {
        process.kill(init.pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    await sleep(10);
  }
  return true;
}

/** The spawn options for ToolDeps.sandbox, or undefined when commands run without bubblewrap. */
export function sandboxSpawnOptions(workspace: string, sandbox: CommandSandbox | undefined): SandboxSpawnOptions | undefined {
  if (sandbox?.kind !== "bubblewrap") return undefined;
  return {
    workspace,
    allowNetwork: sandbox.allowNetwork,
    workspaceAccess: sandbox.workspaceAccess,
    home: sandbox.home ?? os.homedir(),
    protectedPaths: sandbox.protectedPaths ?? [],
    readOnlyPaths: sandbox.readOnlyPaths ?? [],
    bwrapPath: sandbox.bwrapPath,
  };
}
