/**
 * This process's side of the launcher helper (helper-source.ts): one small Node process, started once, that spawns
 * children on our behalf and relays their output. Each launch becomes streams and promises shaped like the direct
 * spawn's, so callers cannot tell the two apart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { internalNodeEnv } from "../internal-node-env.js";
import { isProcessAlive } from "../process-alive.js";
import { HELPER_SOURCE } from "./helper-source.js";
import { LaunchError, type LaunchExit, type LaunchOptions, type Launched } from "./types.js";

type FromHelper =
  | { t: "ready" }
  | { t: "spawned"; id: number; pid: number }
  | { t: "failed"; id: number; message: string; code?: string }
  | { t: "data"; id: number; fd: number; data: Uint8Array }
  | { t: "end"; id: number; fd: number }
  | { t: "exit" | "close"; id: number; code: number | null; signal: NodeJS.Signals | null };

interface Entry {
  started?: (pid: number) => void;
  failed?: (error: LaunchError) => void;
  pid?: number;
  outputs: (PassThrough | undefined)[];
  exit: (value: LaunchExit) => void;
  close: (value: LaunchExit) => void;
  released: boolean;
  /** A background launch holds this process open only until it has started. */
  background: boolean;
}

const GONE_POLL_MS = 50;

export class HelperLauncher {
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;
  private alive = true;

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (message: FromHelper) => this.onMessage(message));
    child.on("exit", () => this.onGone());
    child.on("error", () => this.onGone());
    child.unref();
    this.refChannel(false);
  }

  /** Starts the helper; undefined when it cannot be started (the caller spawns directly then). */
  static start(): HelperLauncher | undefined {
    // What it launches gets each launch's own environment (LaunchOptions.env, or this process's).
    const env = internalNodeEnv(process.env);
    try {
      const child = spawn(process.execPath, ["-e", HELPER_SOURCE], { stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "advanced", env });
      return child.pid === undefined ? (child.on("error", () => undefined), undefined) : new HelperLauncher(child);
    } catch {
      return undefined;
    }
  }

  /** False once the helper has exited: launches then go elsewhere. */
  get usable(): boolean {
    return this.alive;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Ends the helper (tests; at exit it follows the closed channel by itself). */
  stop(): void {
    this.child.kill("SIGKILL");
  }

  launch(file: string, args: readonly string[], options: LaunchOptions = {}): Promise<Launched> {
    if (!this.alive) return Promise.reject(new LaunchError("the process launcher has stopped", undefined));
    const id = this.nextId++;
    const fds = 3 + (options.extraOutputs ?? 0);
    const outputs: (PassThrough | undefined)[] = [undefined];
    for (let fd = 1; fd < fds; fd++) outputs.push(new PassThrough());
    let exit!: (value: LaunchExit) => void;
    let close!: (value: LaunchExit) => void;
    const exited = new Promise<LaunchExit>((resolve) => (exit = resolve));
    const closed = new Promise<LaunchExit>((resolve) => (close = resolve));
    const entry: Entry = { outputs, exit, close, released: false, background: options.background === true };
    const started = new Promise<Launched>((resolve, reject) => {
      entry.started = (pid) =>
        resolve({
          pid,
          stdout: outputs[1] as PassThrough,
          stderr: outputs[2] as PassThrough,
          outputs,
          exited,
          closed,
          kill: (signal) => this.post({ t: "kill", id, signal: signal ?? "SIGTERM" }),
          release: () => {
            entry.released = true;
            for (const stream of outputs) stream?.destroy();
            this.post({ t: "release", id });
          },
        });
      entry.failed = reject;
    });
    this.entries.set(id, entry);
    this.updateRef();
    // Output that goes to a file, or that a background child's nobody reads: the streams stay empty.
    if (options.outputFile !== undefined || options.background) for (const stream of outputs.slice(0, 3)) stream?.end();
    const env = options.env ?? process.env;
    this.post({
      t: "spawn",
      id,
      file,
      args,
      cwd: options.cwd,
      env,
      detached: options.detached ?? false,
      fds,
      input: options.input,
      outputFile: options.outputFile,
      background: options.background === true,
    });
    return started;
  }

  private post(message: object): void {
    if (!this.alive) return;
    try {
      this.child.send(message);
    } catch {
      this.onGone();
    }
  }

  private onMessage(m: FromHelper): void {
    if (m.t === "ready") return;
    const entry = this.entries.get(m.id);
    if (!entry) return;
    switch (m.t) {
      case "spawned":
        entry.pid = m.pid;
        if (entry.background) this.updateRef();
        entry.started?.(m.pid);
        break;
      case "failed":
        this.forget(m.id);
        entry.failed?.(new LaunchError(m.message, m.code));
        break;
      case "data":
        if (!entry.released) entry.outputs[m.fd]?.write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
        break;
      case "end":
        entry.outputs[m.fd]?.end();
        break;
      case "exit":
        entry.exit({ code: m.code, signal: m.signal });
        break;
      case "close":
        this.finish(m.id, entry, { code: m.code, signal: m.signal });
        break;
    }
  }

  private finish(id: number, entry: Entry, result: LaunchExit): void {
    for (const stream of entry.outputs) stream?.end();
    entry.exit(result);
    this.forget(id);
    // After the streams have handed out what they hold (their 'data' and 'end' come on later ticks), as a direct
    // child's 'close' comes after its output.
    setImmediate(() => entry.close(result));
  }

  private forget(id: number): void {
    this.entries.delete(id);
    this.updateRef();
  }

  /**
   * The helper died (killed from outside): launches not yet started fail; started ones end when their process is
   * gone, with no exit status to report.
   */
  private onGone(): void {
    if (!this.alive) return;
    this.alive = false;
    for (const [id, entry] of [...this.entries]) {
      if (entry.pid === undefined) {
        this.forget(id);
        entry.failed?.(new LaunchError("the process launcher stopped before the program started", undefined));
        continue;
      }
      const pid = entry.pid;
      void (async () => {
        while (isProcessAlive(pid)) await sleep(GONE_POLL_MS);
        this.finish(id, entry, { code: null, signal: null });
      })();
    }
  }

  /** The channel keeps this process alive only while a launch that holds it is outstanding. */
  private updateRef(): void {
    this.refChannel([...this.entries.values()].some((e) => !e.background || e.pid === undefined));
  }

  private refChannel(on: boolean): void {
    const channel = this.child.channel;
    if (!channel) return;
    if (on) channel.ref();
    else channel.unref();
  }
}
