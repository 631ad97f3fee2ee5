import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import {
  parseSandboxStatus,
  parseStrayReport,
  sandboxStarted,
  SANDBOX_STATUS_FD,
  sandboxedSpawn,
  STRAY_REPORT_FD,
  waitForSandboxEnd,
  type SandboxSpawnOptions,
} from "../../safety/sandbox/sandboxed-command.js";
import { launch, type Launched } from "../../platform/launcher/index.js";
import { logger } from "../../platform/logger.js";
import { HeadTailBuffer } from "./output-capture.js";
import { registerActiveCommand, unregisterActiveCommand } from "./active-commands.js";
import { killProcessTree, type ProcessTreeTarget } from "../../platform/process-tree.js";

export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  outputLimitChars: number;
  onOutput?: (stream: "stdout" | "stderr", chunk: string) => void;
  signal?: AbortSignal;
  /** Run inside a bubblewrap sandbox (see src/safety/sandbox/bwrap.ts); absent: a plain `bash -c`. */
  sandbox?: SandboxSpawnOptions;
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

/** Collects the text of an extra pipe (empty when there is none); `ended` settles when its writers are gone. */
function collect(stream: unknown): { text: () => string; ended: Promise<void> } {
  let text = "";
  if (!(stream instanceof Readable)) return { text: () => text, ended: Promise.resolve() };
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    text += chunk;
  });
  const ended = new Promise<void>((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
  return { text: () => text, ended };
}

/**
 * Runs `command` with `bash -c` in its own process group, streams and captures its output, and makes sure
 * nothing it started outlives the call. Resolves when the main process exits (not when the pipes close,
 * which a background child could hold open forever). Never rejects.
 *
 * With `sandbox`, the main process is bwrap. The process-tree kill still applies (the host sees every process
 * in the sandbox, and the marker variable passes through), and on a normal exit the sandbox's pid namespace
 * makes the kernel kill what is left; the sandbox reports how many that were on an extra pipe.
 */
export async function runCommand(options: RunCommandOptions): Promise<RunCommandResult> {
  const first = await runOnce(options);
  if (!first.setupFailed) return first.result;
  // bwrap stopped before the command started, on a mount of a path gone since the mounts were listed (a credential
  // file removed meanwhile): nothing ran, so the command runs once more, with the mounts listed again.
  return (await runOnce(options)).result;
}

async function runOnce(options: RunCommandOptions): Promise<{ result: RunCommandResult; setupFailed: boolean }> {
  const marker = { name: COMMAND_MARKER_VAR, value: randomUUID() };
  const started = performance.now();
  const buffer = new HeadTailBuffer(options.outputLimitChars);
  const spec = options.sandbox ? sandboxedSpawn(options.command, options.cwd, options.sandbox) : { file: "bash", args: ["-c", options.command] };
  let child: Launched;
  try {
    child = await launch(spec.file, spec.args, {
      cwd: options.cwd,
      env: { ...options.env, [marker.name]: marker.value },
      detached: true,
      // bwrap's report of stray processes (fd 3) and its status (fd 4).
      extraOutputs: options.sandbox ? SANDBOX_STATUS_FD - 2 : 0,
    });
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    return {
      result: {
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: false,
        durationMs,
        output: "",
        omittedChars: 0,
        strayProcesses: 0,
        spawnError: (error as Error).message,
      },
      setupFailed: false,
    };
  }
  const { closed, exited } = child;
  for (const [name, stream] of [
    ["stdout", child.stdout],
    ["stderr", child.stderr],
  ] as const) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffer.append(chunk);
      options.onOutput?.(name, chunk);
    });
  }

  const strayReport = collect(child.outputs[STRAY_REPORT_FD]);
  const sandboxStatus = collect(child.outputs[SANDBOX_STATUS_FD]);

  const target: ProcessTreeTarget = { pid: child.pid, marker };
  registerActiveCommand(target);
  let timedOut = false;
  let aborted = false;
  const kills: Promise<unknown>[] = [];
  const stop = (): void => {
    kills.push(killProcessTree(target, KILL_GRACE_MS));
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

  // bwrap exits while the kernel is still killing what is left in its pid namespace: wait until it is empty.
  // Only bwrap holds the status pipe, so it has ended (all of it read) once bwrap is gone.
  if (options.sandbox) await Promise.race([sandboxStatus.ended, sleep(DRAIN_MS)]);
  const init = parseSandboxStatus(sandboxStatus.text());
  const sandboxEnded = init !== undefined && (await waitForSandboxEnd(init, KILL_GRACE_MS));
  if (init && !sandboxEnded) logger.warn(`sandbox init ${init.pid} did not exit`);
  // Background jobs (`server &`, daemons) must not outlive the call or hold its pipes open. A sandbox whose pid
  // namespace has ended took all of them with it (nothing started inside can leave it), so only otherwise is
  // /proc searched: reading every process's environment there costs tens of milliseconds on a busy machine.
  // The sandbox's report counts the command's leftovers.
  const strays = !sandboxEnded ? await killProcessTree(target, KILL_GRACE_MS) : [];
  await Promise.all(kills);
  unregisterActiveCommand(target);
  await Promise.race([closed, sleep(DRAIN_MS)]);
  child.release();

  const common = {
    timedOut,
    aborted,
    durationMs,
    output: buffer.text(),
    omittedChars: buffer.omittedChars,
    strayProcesses: timedOut || aborted ? 0 : options.sandbox ? (parseStrayReport(strayReport.text()) ?? strays.length) : strays.length,
  };
  const setupFailed = options.sandbox !== undefined && !sandboxStarted(strayReport.text()) && exit.code === 1 && MOUNT_VANISHED.test(common.output);
  return { result: { ...common, exitCode: exit.code, signal: exit.signal }, setupFailed };
}

/** bwrap's words when a path it was told to mount (or mount over) is not there any more. */
const MOUNT_VANISHED = /^bwrap: Can't (create file at|find source path|mkdir) /m;
