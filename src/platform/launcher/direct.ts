/** Spawning from this process with node:child_process: the fallback when the launcher helper is unavailable. */
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import fs from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { LaunchError, type LaunchExit, type LaunchOptions, type Launched } from "./types.js";

/** stdin from the input or /dev/null; stdout and stderr piped, to `outputFd`, or (background) discarded; extra pipes. */
function stdioFor(options: LaunchOptions, outputFd: number | undefined): StdioOptions {
  // A pipe would hold this process open: a background child's output is not read.
  const out = outputFd ?? (options.background ? "ignore" : "pipe");
  const stdio: ("ignore" | "pipe" | number)[] = [options.input === undefined ? "ignore" : "pipe", out, out];
  for (let i = 0; i < (options.extraOutputs ?? 0); i++) stdio.push("pipe");
  return stdio;
}

export function launchDirect(file: string, args: readonly string[], options: LaunchOptions = {}): Promise<Launched> {
  let child: ChildProcess;
  let outputFd: number | undefined;
  try {
    if (options.outputFile !== undefined) outputFd = fs.openSync(options.outputFile, "w");
    child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, detached: options.detached ?? false, stdio: stdioFor(options, outputFd) });
  } catch (error) {
    // Synchronous failures: an invalid argument (a NUL byte in an argument, say), an output file that cannot be written.
    return Promise.reject(new LaunchError((error as Error).message, (error as NodeJS.ErrnoException).code));
  } finally {
    if (outputFd !== undefined) fs.closeSync(outputFd);
  }
  if (options.background) child.unref();
  const { pid } = child;
  if (pid === undefined) {
    return new Promise((_, reject) => child.once("error", (error: NodeJS.ErrnoException) => reject(new LaunchError(error.message, error.code))));
  }
  // After a successful spawn, 'error' only reports a failed kill or a broken stdin: nothing to act on.
  child.on("error", () => undefined);
  const exited = new Promise<LaunchExit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const closed = new Promise<LaunchExit>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  if (options.input !== undefined && child.stdin) {
    child.stdin.on("error", () => undefined); // the child may exit without reading it
    child.stdin.end(options.input);
  }
  // Output sent to a file: empty streams in its place, so callers read the same shape.
  const outputs = child.stdio.map((stream, fd) => (fd === 0 ? undefined : stream === null ? new PassThrough().end() : (stream as Readable)));
  return Promise.resolve({
    pid,
    stdout: outputs[1] as Readable,
    stderr: outputs[2] as Readable,
    outputs,
    exited,
    closed,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal ?? "SIGTERM");
    },
    release: () => {
      for (const stream of child.stdio) stream?.destroy();
    },
  });
}
