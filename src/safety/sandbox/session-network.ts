import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { firstLineOf } from "../../platform/first-line.js";
import { killProcessTreeNow } from "../../platform/process-tree.js";
import { isProcessAlive } from "../../platform/process-alive.js";
import { launch, type Launched } from "../../platform/launcher/index.js";
import { runProgram } from "../../platform/run-program.js";
import { parseSandboxStatus, waitForSandboxEnd, type SandboxInit } from "./sandboxed-command.js";

/**
 * One loopback network for a whole session, so that a server started in the background and the commands after it
 * can talk over 127.0.0.1 while the outside network stays off. A small holder process (bwrap with `--unshare-net`,
 * which also brings `lo` up) keeps the network namespace alive; later sandboxes join it with util-linux
 * `nsenter --net` instead of making their own. Joining a namespace needs CAP_SYS_ADMIN over it, so this works when
 * mini-cursor runs as root (tests and CI do); bubblewrap 0.8 has no option to join a network namespace itself.
 * Elsewhere `open()` says why it is unavailable, and background processes are refused unless the network is allowed.
 * The holder dies with this process (`--die-with-parent`), taking the namespace with it.
 */
export interface SharedNetwork {
  /** The namespace to join, e.g. /proc/123/ns/net. */
  path: string;
}

export interface SessionNetworkOptions {
  bwrapPath?: string;
  nsenterPath?: string;
}

/** How long the holder gets to report its namespace. */
const STATUS_TIMEOUT_MS = 10_000;

export class SessionNetwork {
  private opening: Promise<SharedNetwork | { error: string }> | null = null;
  private holder: Launched | null = null;
  private init: SandboxInit | null = null;
  private current: SharedNetwork | null = null;
  private readonly onExit = () => this.killNow();

  constructor(private readonly options: SessionNetworkOptions = {}) {}

  get nsenterPath(): string {
    return this.options.nsenterPath ?? "nsenter";
  }

  /** The network once it is open and its holder still runs. */
  shared(): SharedNetwork | undefined {
    if (this.current && this.init && !this.alive()) this.current = null;
    return this.current ?? undefined;
  }

  /** Opens the session's network (once); an error says why it cannot be had here. */
  open(): Promise<SharedNetwork | { error: string }> {
    if (this.current && !this.shared()) this.opening = null;
    return (this.opening ??= this.start());
  }

  private alive(): boolean {
    if (!this.init) return false;
    try {
      return fs.readlinkSync(`/proc/${this.init.pid}/ns/pid`) === `pid:[${this.init.pidNamespace}]` && isProcessAlive(this.init.pid);
    } catch {
      return false;
    }
  }

  private async start(): Promise<SharedNetwork | { error: string }> {
    if (process.platform !== "linux") return { error: "a shared loopback network needs Linux" };
    if (process.getuid?.() !== 0)
      return {
        error:
          "joining one loopback network from several sandboxes needs root here (nsenter --net); run with --allow-network to let them share the host's network instead",
      };
    const nsenter = await runProgram(this.nsenterPath, ["--version"], { timeoutMs: 5000 });
    if (nsenter.code !== 0) return { error: `util-linux nsenter is not available (${nsenter.stderr.trim() || "not found"})` };
    const bwrap = this.options.bwrapPath ?? "bwrap";
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "--unshare-pid", "--die-with-parent", "--cap-drop", "ALL"];
    // A background launch (it must never keep this process alive) has no stderr pipe: bwrap's complaint goes to a file.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mini-cursor-network-"));
    const log = path.join(scratch, "holder.log");
    try {
      let child: Launched;
      try {
        child = await launch(bwrap, [...args, "--json-status-fd", "3", "--", "sleep", "infinity"], {
          detached: true,
          background: true,
          extraOutputs: 1,
          outputFile: log,
        });
      } catch (error) {
        return { error: `could not create the session's network namespace: ${(error as Error).message}` };
      }
      const exited = child.exited.then(({ code, signal }) => ({ why: `the holder exited (${signal ?? `code ${code}`})` }));
      // The timer also keeps this process alive meanwhile: a background launch through the launcher's helper does not.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<{ why: string }>((resolve) => (timer = setTimeout(() => resolve({ why: "it did not start in time" }), STATUS_TIMEOUT_MS)));
      const status = await Promise.race([firstLineOf(child.outputs[3]), exited, late]);
      clearTimeout(timer);
      const init = typeof status === "string" ? parseSandboxStatus(status) : undefined;
      if (!init) {
        child.kill("SIGKILL");
        child.release();
        const why = typeof status === "string" ? "no namespace reported" : status.why;
        const stderr = fs.readFileSync(log, "utf8").trim().split("\n")[0];
        return { error: `could not create the session's network namespace: ${stderr || why}` };
      }
      // The holder must never keep this process alive on its own: its status pipe, when it is ours (no launcher helper), neither.
      (child.outputs[3] as { unref?: () => void } | undefined)?.unref?.();
      this.holder = child;
      this.init = init;
      process.once("exit", this.onExit);
      this.current = { path: `/proc/${init.pid}/ns/net` };
      return this.current;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  private killNow(): void {
    if (this.holder) killProcessTreeNow({ pid: this.holder.pid });
  }

  /** Stops the holder; the namespace goes once nothing else is in it. */
  async close(): Promise<void> {
    const { holder, init } = this;
    this.holder = null;
    this.current = null;
    this.opening = null;
    process.off("exit", this.onExit);
    if (!holder || !init) return;
    this.init = null;
    holder.kill("SIGKILL");
    await waitForSandboxEnd(init, 1000);
    holder.release();
  }
}
