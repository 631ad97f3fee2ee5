import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readlinkSync } from "node:fs";
import { firstLineOf } from "../../platform/first-line.js";
import { killProcessTreeNow } from "../../platform/process-tree.js";
import { isProcessAlive } from "../../platform/process-alive.js";
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

function run(file: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ ok: !error, text: (stderr || stdout || error?.message || "").trim() }),
    );
  });
}

export class SessionNetwork {
  private opening: Promise<SharedNetwork | { error: string }> | null = null;
  private holder: ChildProcess | null = null;
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
      return readlinkSync(`/proc/${this.init.pid}/ns/pid`) === `pid:[${this.init.pidNamespace}]` && isProcessAlive(this.init.pid);
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
    const nsenter = await run(this.nsenterPath, ["--version"]);
    if (!nsenter.ok) return { error: `util-linux nsenter is not available (${nsenter.text || "not found"})` };
    const bwrap = this.options.bwrapPath ?? "bwrap";
    const child = spawn(
      bwrap,
      [
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--unshare-net",
        "--unshare-pid",
        "--die-with-parent",
        "--cap-drop",
        "ALL",
        "--json-status-fd",
        "3",
        "--",
        "sleep",
        "infinity",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe"], detached: true },
    );
    const failed = new Promise<string>((resolve) => {
      child.once("error", (error) => resolve(error.message));
      child.once("exit", (code, signal) => resolve(`the holder exited (${signal ?? `code ${code}`})`));
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const status = await Promise.race([firstLineOf(child.stdio[3]), failed.then((why) => ({ why }))]);
    const init = typeof status === "string" ? parseSandboxStatus(status) : undefined;
    if (!init || child.pid === undefined) {
      child.kill("SIGKILL");
      const why = typeof status === "string" ? "no namespace reported" : status.why;
      return { error: `could not create the session's network namespace: ${stderr.trim().split("\n")[0] || why}` };
    }
    child.unref();
    // The holder must never keep this process alive on its own.
    for (const stream of [child.stderr, child.stdio[3]]) (stream as { unref?: () => void } | null)?.unref?.();
    this.holder = child;
    this.init = init;
    process.once("exit", this.onExit);
    this.current = { path: `/proc/${init.pid}/ns/net` };
    return this.current;
  }

  private killNow(): void {
    if (this.holder?.pid !== undefined) killProcessTreeNow({ pid: this.holder.pid });
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
    for (const stream of holder.stdio) stream?.destroy();
  }
}
