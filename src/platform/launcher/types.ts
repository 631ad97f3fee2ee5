import type { Readable } from "node:stream";

export interface LaunchOptions {
  cwd?: string;
  /** The child's whole environment; this process's when absent. */
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed. Without it, stdin is /dev/null. */
  input?: string | Buffer;
  /** Own session and process group, as `spawn`'s `detached` (its pid is then its process group id). */
  detached?: boolean;
  /** Output pipes beyond stdout and stderr, on fds 3, 4, ... (e.g. bwrap's status and report pipes). */
  extraOutputs?: number;
  /** stdout and stderr go to this file (truncated first) instead of pipes; the streams then stay empty. */
  outputFile?: string;
  /**
   * A long-running child (a server) that must not keep this process alive once started. Its output is not read:
   * give `outputFile` to keep it (the streams stay empty). Default false.
   */
  background?: boolean;
}

export interface LaunchExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A started child process, wherever it was spawned from. */
export interface Launched {
  readonly pid: number;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The output pipes by fd: 1 is stdout, 2 stderr, 3 and up the extra outputs; 0 is never set. */
  readonly outputs: readonly (Readable | undefined)[];
  /** The process exited (its pipes may still be open: a background grandchild can hold them). */
  readonly exited: Promise<LaunchExit>;
  /** It exited and every pipe was read to its end. */
  readonly closed: Promise<LaunchExit>;
  /** Signals the process (SIGTERM when not given); nothing happens once it has exited. */
  kill(signal?: NodeJS.Signals): void;
  /** Stops reading: closes the pipes on both sides. For output nobody waits for any more. */
  release(): void;
}

/** The program could not be started at all: not found, not executable, a bad cwd. `code` is the errno name. */
export class LaunchError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = "LaunchError";
    this.code = code;
  }
}
