import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { buildBwrapArgs } from "../../safety/sandbox/bwrap.js";
import type { SandboxSpawnOptions } from "../../safety/sandbox/sandboxed-command.js";
import { internalNodeEnv } from "../../platform/internal-node-env.js";
import { logger } from "../../platform/logger.js";
import { TS_WORKER_SOURCE, type WorkerProblem } from "./ts-worker.js";

/** What one request to the language service came to. */
export type TsOutcome =
  { kind: "problems"; problems: WorkerProblem[] } | { kind: "unavailable"; reason: string } | { kind: "timeout" } | { kind: "failed"; reason: string };

export interface TsServiceOptions {
  root: string;
  /** The session's sandbox; the service always gets a read-only workspace and no network. */
  sandbox: SandboxSpawnOptions;
  env: Record<string, string>;
}

interface Pending {
  resolve: (outcome: TsOutcome) => void;
}

/** Starts after this many failures are not tried again in the session (each costs a process and the model's time). */
const MAX_STARTS = 2;

/**
 * The project's TypeScript language service in a sandboxed child process, started on the first request and kept
 * warm for the session (src/services/diagnostics/ts-worker.ts). bwrap's --die-with-parent and its pid namespace take the
 * service with this process in any case; `close` stops it with the session. The child does not keep Node alive.
 */
export class TsService {
  private child: ChildProcess | undefined;
  private ready: Promise<TsOutcome | null> | undefined;
  private unavailable: string | undefined;
  private starts = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrTail = "";

  constructor(private readonly o: TsServiceOptions) {}

  /** New problems in `files` (relative paths; `before`: the text before the change, null for a new file). */
  check(files: { file: string; before?: string | null }[], timeoutMs: number): Promise<TsOutcome> {
    return this.request({ type: "check", files }, timeoutMs);
  }

  /** Every problem of the project. */
  project(timeoutMs: number): Promise<TsOutcome> {
    return this.request({ type: "project" }, timeoutMs);
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  close(): void {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    this.failAll("the session ended");
    if (child && child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      child.kill("SIGKILL");
    }
  }

  private async request(body: Record<string, unknown>, timeoutMs: number): Promise<TsOutcome> {
    const deadline = Date.now() + timeoutMs;
    if (this.unavailable !== undefined) return { kind: "unavailable", reason: this.unavailable };
    const started = await withTimeout(this.start(), timeoutMs);
    if (started === "timeout") return { kind: "timeout" };
    if (started) return started;
    const child = this.child;
    if (!child?.stdin) return { kind: "failed", reason: "the language service is not running" };
    const id = this.nextId++;
    const answer = new Promise<TsOutcome>((resolve) => this.pending.set(id, { resolve }));
    child.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
    const outcome = await withTimeout(answer, Math.max(0, deadline - Date.now()));
    if (outcome === "timeout") {
      // A late answer is dropped; the service goes on and is warm for the next request.
      this.pending.delete(id);
      return { kind: "timeout" };
    }
    return outcome;
  }

  /** null once the service is ready; an outcome when it cannot be. */
  private start(): Promise<TsOutcome | null> {
    if (this.ready) return this.ready;
    if (this.starts >= MAX_STARTS) return Promise.resolve({ kind: "failed", reason: "the language service stopped repeatedly" });
    this.starts += 1;
    const { root, sandbox, env } = this.o;
    const { bwrapPath, ...bwrap } = sandbox;
    const args = buildBwrapArgs({ ...bwrap, workspaceAccess: "read-only", liveWorkspace: true, allowNetwork: false, cwd: root });
    // Not the launcher: it writes a child's stdin once and closes it, and the service is sent a request at a time.
    const child = spawn(bwrapPath ?? "bwrap", [...args, "--", process.execPath, "-e", TS_WORKER_SOURCE, root], {
      cwd: root,
      // Our own worker, not the user's program: a NODE_OPTIONS `--import` of a file outside the sandbox's view broke it.
      env: internalNodeEnv(env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    this.stderrTail = "";
    // A service that died between a check and the next write: EPIPE is the exit, handled below, never a crash.
    child.stdin?.on("error", () => undefined);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    const ready = new Promise<TsOutcome | null>((resolve) => {
      const lines = readline.createInterface({ input: child.stdout! });
      lines.on("line", (line) => {
        let message: { type?: string; id?: number; ok?: boolean; problems?: WorkerProblem[]; error?: string; reason?: string };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.type === "ready") resolve(null);
        else if (message.type === "unavailable") {
          this.unavailable = message.reason ?? "TypeScript is not available";
          resolve({ kind: "unavailable", reason: this.unavailable });
        } else if (typeof message.id === "number") {
          const pending = this.pending.get(message.id);
          this.pending.delete(message.id);
          pending?.resolve(message.ok ? { kind: "problems", problems: message.problems ?? [] } : { kind: "failed", reason: message.error ?? "unknown error" });
        }
      });
      child.once("error", (error) => resolve({ kind: "failed", reason: `the language service could not start (${error.message})` }));
      child.once("exit", (code, signal) => {
        const why =
          this.unavailable ?? `the language service exited (${signal ?? `code ${code}`})${this.stderrTail ? `: ${tellingLine(this.stderrTail)}` : ""}`;
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
          if (this.unavailable === undefined) logger.warn(`diagnostics: ${why}`);
        }
        this.failAll(why);
        resolve(this.unavailable !== undefined ? { kind: "unavailable", reason: this.unavailable } : { kind: "failed", reason: why });
      });
    });
    // The service never holds the session's process open; a request in flight does (its timer).
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
    this.ready = ready;
    return ready;
  }

  private failAll(reason: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.resolve({ kind: "failed", reason });
    }
  }
}

/**
 * The line of a dead service's stderr that says why: Node ends an uncaught error with its stack, the error's
 * properties and "Node.js v20.x", so the error's own line is looked for first.
 */
function tellingLine(text: string): string {
  const lines = text
    .trim()
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^Node\.js v\d/.test(line));
  const error = lines.findLast((line) => /^[A-Za-z]*(Error|Exception)\b.*:/.test(line));
  return error ?? lines.at(-1) ?? "";
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
