import { killProcessTree, killProcessTreeNow, type ProcessTreeTarget } from "../../platform/process-tree.js";
import { logger } from "../../platform/logger.js";

/**
 * Commands started by execute_command that are still running, so that an interrupted session (Ctrl-C) or
 * an exiting process can stop them: they run in their own process groups and would otherwise survive us.
 */
const active = new Set<ProcessTreeTarget>();
let exitHookInstalled = false;

export function registerActiveCommand(target: ProcessTreeTarget): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort; only synchronous work is possible in an exit handler.
    process.once("exit", () => active.forEach(killProcessTreeNow));
  }
  active.add(target);
}

export function unregisterActiveCommand(target: ProcessTreeTarget): void {
  active.delete(target);
}

export function activeCommandCount(): number {
  return active.size;
}

/**
 * Stops every running command and everything it started (SIGTERM, then SIGKILL after a grace period).
 * Returns at once; each execute_command call then finishes with a "killed" result. Returns how many
 * commands were signalled.
 */
export function killActiveCommands(graceMs = 1000): number {
  const targets = [...active];
  for (const target of targets) {
    killProcessTree(target, graceMs).catch((error: unknown) => logger.warn(`could not kill command process ${target.pid}: ${String(error)}`));
  }
  return targets.length;
}
