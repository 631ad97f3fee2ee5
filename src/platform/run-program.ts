import { launch, LaunchError, type LaunchExit, type Launched } from "./launcher/index.js";

/**
 * A program run to its end through the launcher (so the big process does not fork), its output collected: git, the
 * `--version` checks, a short `nsenter` probe. Long-lived children whose pipes we hold use `launch` itself.
 */
export interface ProgramRun {
  /** The exit code; null when it was killed (timeout) or could not start. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  /** Why it could not start at all (`code` "ENOENT": not found). */
  startError?: LaunchError;
}

export interface RunProgramOptions {
  cwd?: string;
  /** The child's whole environment; this process's when absent. */
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Killed (SIGKILL) after this long: a hung program (a lock held elsewhere) must not hang its caller. */
  timeoutMs?: number;
}

/** Runs `file` with `args` (no shell) and collects its output. Never rejects. */
export async function runProgram(file: string, args: readonly string[], options: RunProgramOptions = {}): Promise<ProgramRun> {
  let child: Launched;
  try {
    child = await launch(file, args, { cwd: options.cwd, env: options.env, ...(options.input === undefined ? {} : { input: options.input }) });
  } catch (error) {
    const startError = error instanceof LaunchError ? error : new LaunchError(String(error), undefined);
    return { code: null, signal: null, stdout: Buffer.alloc(0), stderr: startError.message, timedOut: false, startError };
  }
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const { code, signal } = await new Promise<LaunchExit>((resolve) => {
    void child.closed.then(resolve);
    if (options.timeoutMs === undefined) return;
    timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
      // A background grandchild may hold the pipes open: the program's own exit is the end.
      void child.exited.then(resolve);
    }, options.timeoutMs);
  });
  clearTimeout(timer);
  if (timedOut) child.release();
  return { code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8"), timedOut };
}
