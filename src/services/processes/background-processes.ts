import { randomUUID } from "node:crypto";
import { firstLineOf } from "../../platform/first-line.js";
import type { ProgressEvent } from "../../core/index.js";
import { systemClock, type Clock } from "../../platform/clock.js";
import { killProcessTree, killProcessTreeNow, type ProcessTreeTarget } from "../../platform/process-tree.js";
import { launch, type Launched } from "../../platform/launcher/index.js";
import { SessionNetwork } from "../../safety/sandbox/session-network.js";
import {
  parseSandboxStatus,
  SANDBOX_STATUS_FD,
  sandboxedSpawn,
  waitForSandboxEnd,
  type SandboxInit,
  type SandboxSpawnOptions,
} from "../../safety/sandbox/sandboxed-command.js";
import { HeadTailBuffer, stripAnsi } from "../commands/output-capture.js";
import { COMMAND_MARKER_VAR } from "../commands/run-command.js";
import { portAnswers } from "./port-probe.js";

/**
 * The session's background processes (start_process and friends): one registry per session, in the host's services,
 * not in graph state. Each process runs like an execute_command command (the same sandbox, environment and
 * process-tree kill), but keeps running between tool calls; it is stopped on stop_process, at the end of the session,
 * on Ctrl-C, and dies with this process on a hard kill (bwrap's --die-with-parent and its pid namespace).
 * Sandboxed without network, they and every later command of the session share one loopback (SessionNetwork).
 */
export type ProcessState = "running" | "exited" | "stopped";

export interface ProcessSummary {
  id: string;
  name: string;
  command: string;
  /** Relative to the workspace. */
  cwd: string;
  state: ProcessState;
  exitCode: number | null;
  signal: string | null;
  startedAt: number;
  endedAt?: number;
  /** Output characters not read yet. */
  unreadChars: number;
}

export interface StartRequest {
  command: string;
  /** Absolute folder to run in, and how to show it. */
  cwd: string;
  cwdLabel: string;
  name?: string;
  env: Record<string, string>;
  sandbox?: SandboxSpawnOptions;
}

export type WaitOutcome = "ready" | "exited" | "timeout" | "aborted";

export interface BackgroundProcessOptions {
  emit?: (event: ProgressEvent) => void;
  clock?: Clock;
  /** Most processes running at once. */
  maxRunning?: number;
  /** Characters of unread output kept (head and tail) between reads. */
  outputLimitChars?: number;
  network?: SessionNetwork;
  /** Told whenever the set of running processes changes (the host records it for resume). */
  onChange?: (running: ProcessSummary[]) => void;
}

interface Entry {
  summary: Omit<ProcessSummary, "unreadChars">;
  child: Launched;
  target: ProcessTreeTarget;
  init: Promise<SandboxInit | undefined>;
  unread: HeadTailBuffer;
  unreadChars: number;
  /** The newest output, for wait_for_process patterns. */
  recent: string;
  exited: Promise<void>;
  listeners: Set<() => void>;
  stopping: boolean;
  announcedReady: boolean;
}

const RECENT_CHARS = 64_000;
const KILL_GRACE_MS = 1000;
/** A start waits this long, so that a command that fails at once says so in start_process's own result. */
const SETTLE_MS = 400;
const POLL_MS = 200;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class BackgroundProcesses {
  private readonly entries = new Map<string, Entry>();
  private counter = 0;
  private closed = false;
  readonly network: SessionNetwork;
  private readonly clock: Clock;
  private readonly onExit = () => {
    for (const entry of this.entries.values()) if (entry.summary.state === "running") killProcessTreeNow(entry.target);
  };

  constructor(private readonly options: BackgroundProcessOptions = {}) {
    this.network = options.network ?? new SessionNetwork();
    this.clock = options.clock ?? systemClock;
  }

  get maxRunning(): number {
    return this.options.maxRunning ?? 8;
  }

  /** The shared loopback later sandboxed commands join, once a background process opened it. */
  sharedNetwork(): { path: string; nsenterPath: string } | undefined {
    const shared = this.network.shared();
    return shared ? { ...shared, nsenterPath: this.network.nsenterPath } : undefined;
  }

  list(): ProcessSummary[] {
    return [...this.entries.values()].map((e) => this.summarize(e));
  }

  running(): ProcessSummary[] {
    return this.list().filter((p) => p.state === "running");
  }

  /** By id or by name (the newest of that name). */
  find(ref: string): ProcessSummary | undefined {
    const entry = this.entry(ref);
    return entry ? this.summarize(entry) : undefined;
  }

  private entry(ref: string): Entry | undefined {
    const byId = this.entries.get(ref);
    if (byId) return byId;
    return [...this.entries.values()].reverse().find((e) => e.summary.name === ref);
  }

  private summarize(e: Entry): ProcessSummary {
    return { ...e.summary, unreadChars: e.unreadChars };
  }

  private emit(state: "started" | "ready" | "exited" | "stopped", e: Entry, detail: string): void {
    const { id, name, command } = e.summary;
    this.options.emit?.({ type: "background_process", state, id, name, command, detail });
  }

  private changed(): void {
    this.options.onChange?.(this.running());
  }

  async start(req: StartRequest): Promise<{ ok: true; process: ProcessSummary; output: string } | { ok: false; error: string }> {
    if (this.closed) return { ok: false, error: "the session is ending; no new background processes start" };
    const running = this.running();
    if (running.length >= this.maxRunning) {
      return {
        ok: false,
        error: `${running.length} background processes are running already (the most at once); stop one with stop_process first (running: ${running.map((p) => p.name).join(", ")})`,
      };
    }
    const name = (req.name ?? "").trim();
    if (name && running.some((p) => p.name === name))
      return { ok: false, error: `a background process named "${name}" is running already; stop it first or choose another name` };
    let sandbox = req.sandbox;
    if (sandbox && !sandbox.allowNetwork) {
      const shared = await this.network.open();
      if ("error" in shared)
        return { ok: false, error: `background processes need the session's shared loopback network, which is not available here: ${shared.error}` };
      sandbox = { ...sandbox, network: { path: shared.path, nsenterPath: this.network.nsenterPath } };
    }
    const id = `p${++this.counter}`;
    const marker = { name: COMMAND_MARKER_VAR, value: randomUUID() };
    const spec = sandbox ? sandboxedSpawn(req.command, req.cwd, sandbox) : { file: "bash", args: ["-c", req.command] };
    let child: Launched;
    try {
      child = await launch(spec.file, spec.args, {
        cwd: req.cwd,
        env: { ...req.env, [marker.name]: marker.value },
        detached: true,
        // bwrap's report of stray processes (fd 3) and its status (fd 4).
        extraOutputs: sandbox ? SANDBOX_STATUS_FD - 2 : 0,
      });
    } catch (error) {
      return { ok: false, error: `could not start: ${(error as Error).message}` };
    }
    const entry: Entry = {
      summary: { id, name: name || id, command: req.command, cwd: req.cwdLabel, state: "running", exitCode: null, signal: null, startedAt: this.clock.now() },
      child,
      target: { pid: child.pid, marker },
      init: sandbox ? firstLineOf(child.outputs[SANDBOX_STATUS_FD]).then(parseSandboxStatus) : Promise.resolve(undefined),
      unread: new HeadTailBuffer(this.options.outputLimitChars ?? 20_000),
      unreadChars: 0,
      recent: "",
      exited: Promise.resolve(),
      listeners: new Set(),
      stopping: false,
      announcedReady: false,
    };
    const notify = () => entry.listeners.forEach((listener) => listener());
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        entry.unread.append(chunk);
        entry.unreadChars += chunk.length;
        entry.recent = (entry.recent + chunk).slice(-RECENT_CHARS);
        notify();
      });
    }
    entry.exited = new Promise<void>((resolve) => {
      const ended = (code: number | null, signal: NodeJS.Signals | null) => {
        if (entry.summary.state !== "running") return resolve();
        Object.assign(entry.summary, { state: entry.stopping ? "stopped" : "exited", exitCode: code, signal, endedAt: this.clock.now() });
        if (!entry.stopping) this.emit("exited", entry, code !== null ? `exit code ${code}` : `killed by ${signal ?? "a signal"}`);
        this.changed();
        notify();
        resolve();
      };
      void child.exited.then(({ code, signal }) => ended(code, signal));
    });
    if (this.entries.size === 0) process.once("exit", this.onExit);
    this.entries.set(id, entry);
    this.emit("started", entry, `${req.cwdLabel}: ${req.command}`);
    this.changed();
    await Promise.race([entry.exited, sleep(SETTLE_MS)]);
    return { ok: true, process: this.summarize(entry), output: this.take(entry) };
  }

  private take(entry: Entry): string {
    const text = entry.unread.text();
    entry.unread = new HeadTailBuffer(this.options.outputLimitChars ?? 20_000);
    entry.unreadChars = 0;
    return text;
  }

  /** The output since the last read (head and tail when long), and the process as it is now. */
  read(ref: string): { process: ProcessSummary; output: string; omitted: number } | undefined {
    const entry = this.entry(ref);
    if (!entry) return undefined;
    const omitted = entry.unread.omittedChars;
    const output = this.take(entry);
    return { process: this.summarize(entry), output, omitted };
  }

  /**
   * Waits until a line of the output matches `pattern` (output from the start counts), or 127.0.0.1:`port` accepts
   * connections where the process runs, whichever comes first; or the process exits, or time runs out.
   */
  async waitFor(
    ref: string,
    until: { pattern?: RegExp; port?: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ outcome: WaitOutcome; elapsedMs: number; process: ProcessSummary; matched?: string } | undefined> {
    const entry = this.entry(ref);
    if (!entry) return undefined;
    const started = this.clock.now();
    const deadline = performance.now() + until.timeoutMs;
    const result = (outcome: WaitOutcome, matched?: string) => {
      if (outcome === "ready" && !entry.announcedReady) {
        entry.announcedReady = true;
        this.emit("ready", entry, matched ?? "");
      }
      return { outcome, elapsedMs: this.clock.now() - started, process: this.summarize(entry), ...(matched !== undefined ? { matched } : {}) };
    };
    const network = this.sharedNetwork();
    for (;;) {
      if (until.pattern) {
        const pattern = until.pattern;
        const line = stripAnsi(entry.recent)
          .split("\n")
          .find((l) => pattern.test(l));
        if (line !== undefined) return result("ready", `output line: ${line.trim().slice(0, 200)}`);
      }
      if (until.port !== undefined && entry.summary.state === "running" && (await portAnswers(until.port, network)))
        return result("ready", `port ${until.port} answers`);
      if (entry.summary.state !== "running") return result("exited");
      if (until.signal?.aborted) return result("aborted");
      const left = deadline - performance.now();
      if (left <= 0) return result("timeout");
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          entry.listeners.delete(wake);
          until.signal?.removeEventListener("abort", wake);
          resolve();
        };
        // Output wakes a pattern wait at once; a port is polled.
        const timer = setTimeout(wake, Math.min(left, POLL_MS));
        if (until.pattern) entry.listeners.add(wake);
        until.signal?.addEventListener("abort", wake, { once: true });
      });
    }
  }

  /** Stops a process and everything it started; waits until they are gone. */
  async stop(ref: string): Promise<ProcessSummary | undefined> {
    const entry = this.entry(ref);
    if (!entry) return undefined;
    if (entry.summary.state === "running") {
      entry.stopping = true;
      await killProcessTree(entry.target, KILL_GRACE_MS);
      await entry.exited;
      const init = await Promise.race([entry.init, sleep(100).then(() => undefined)]);
      if (init) await waitForSandboxEnd(init, KILL_GRACE_MS);
      this.emit("stopped", entry, "stopped");
    }
    entry.child.release();
    return this.summarize(entry);
  }

  /**
   * The end of the session: stops every running process (and the shared network) and refuses new ones. Returns the
   * ones that were still running.
   */
  async stopAll(): Promise<ProcessSummary[]> {
    this.closed = true;
    const running = [...this.entries.values()].filter((e) => e.summary.state === "running");
    await Promise.all(running.map((e) => this.stop(e.summary.id)));
    for (const e of this.entries.values()) e.child.release();
    await this.network.close();
    process.off("exit", this.onExit);
    return running.map((e) => this.summarize(e));
  }
}
