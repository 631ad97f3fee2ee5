import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { HeadTailBuffer } from "./output-capture.js";
import { registerActiveCommand, unregisterActiveCommand } from "./active-commands.js";
import { killProcessTree, type ProcessTreeTarget } from "./process-tree.js";

export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  outputLimitChars: number;
  onOutput?: (stream: "stdout" | "stderr", chunk: string) => void;
  signal?: AbortSignal;
}

export interface RunCommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** stdout and stderr interleaved as they arrived, head and tail kept. */
  output: string;
  omittedChars: number;
  /** Processes the command left running after it exited (they were killed). */
  strayProcesses: number;
  spawnError?: string;
}

/** Name of the variable that marks every process a command starts (see process-tree.ts). */
export const COMMAND_MARKER_VAR = "MINI_CURSOR_COMMAND_ID";
/** How long SIGTERM gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the main process exits and leftovers are killed, how long to wait for the pipes to drain. */
const DRAIN_MS = 500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `command` with `bash -c` in its own process group, streams and captures its output, and makes sure
 * nothing it started outlives the call. Resolves when the main process exits (not when the pipes close,
 * which a background child could hold open forever). Never rejects.
 */
export async function runCommand(options: RunCommandOptions): Promise<RunCommandResult> {
  const marker = { name: COMMAND_MARKER_VAR, value: randomUUID() };
  const started = performance.now();
  const buffer = new HeadTailBuffer(options.outputLimitChars);
  const child = spawn("bash", ["-c", options.command], {
    cwd: options.cwd,
    env: { ...options.env, [marker.name]: marker.value },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve({ error }));
  });
  for (const [name, stream] of [["stdout", child.stdout], ["stderr", child.stderr]] as const) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffer.append(chunk);
      options.onOutput?.(name, chunk);
    });
  }

  const target: ProcessTreeTarget | undefined = child.pid === undefined ? undefined : { pid: child.pid, marker };
  if (target) registerActiveCommand(target);
  let timedOut = false;
  let aborted = false;
  const kills: Promise<unknown>[] = [];
  const stop = (): void => {
    if (target) kills.push(killProcessTree(target, KILL_GRACE_MS));
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const exit = await exited;
  const durationMs = Math.round(performance.now() - started);
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);

  // Background jobs (`server &`, daemons) must not outlive the call or hold its pipes open.
  const strays = target ? await killProcessTree(target, KILL_GRACE_MS) : [];
  await Promise.all(kills);
  if (target) unregisterActiveCommand(target);
  await Promise.race([closed, sleep(DRAIN_MS)]);
  child.stdout.destroy();
  child.stderr.destroy();

  const common = {
    timedOut,
    aborted,
    durationMs,
    output: buffer.text(),
    omittedChars: buffer.omittedChars,
    strayProcesses: timedOut || aborted ? 0 : strays.length,
  };
  if ("error" in exit) return { ...common, exitCode: null, signal: null, spawnError: exit.error.message };
  return { ...common, exitCode: exit.code, signal: exit.signal };
}
