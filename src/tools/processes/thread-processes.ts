import type { RunnableConfig } from "@langchain/core/runnables";
import type { ProgressEvent } from "../../core/index.js";
import { BackgroundProcesses } from "./background-processes.js";

export interface ThreadProcessesOptions {
  /** A thread's processes are stopped after this long without a call of a process tool or a command on it. */
  idleMs: number;
  emit?: (event: ProgressEvent) => void;
}

interface Thread {
  registry: BackgroundProcesses;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Background processes for a server that runs many threads (the Studio graph): each thread (a session) has its own
 * registry, and so its own loopback network. A run has no session end to stop them at, and an approval or a question
 * ends a run while its work goes on later; so a thread's processes stop once it has been idle for `idleMs`, and all of
 * them with the server (bubblewrap's --die-with-parent).
 */
export class ThreadProcesses {
  private readonly threads = new Map<string, Thread>();

  constructor(private readonly options: ThreadProcessesOptions) {}

  /** The registry of the call's thread; none outside a thread (a run without a thread id). */
  readonly forRun = (config: RunnableConfig | undefined): BackgroundProcesses | undefined => {
    const id = config?.configurable?.thread_id;
    if (typeof id !== "string" || id === "") return undefined;
    let thread = this.threads.get(id);
    if (!thread) {
      thread = { registry: new BackgroundProcesses(this.options.emit ? { emit: this.options.emit } : {}), timer: undefined };
      this.threads.set(id, thread);
    }
    this.touch(id, thread);
    return thread.registry;
  };

  private touch(id: string, thread: Thread): void {
    clearTimeout(thread.timer);
    thread.timer = setTimeout(() => void this.stopThread(id, thread), this.options.idleMs);
    // Idle threads never keep the server's process alive.
    thread.timer.unref();
  }

  /** Idle is counted from the start of the thread's last call: `idleMs` must outlast the longest command or wait. */
  private async stopThread(id: string, thread: Thread): Promise<void> {
    if (this.threads.get(id) !== thread) return;
    this.threads.delete(id);
    await thread.registry.stopAll();
  }

  /** Stops every thread's processes. */
  async stopAll(): Promise<void> {
    const all = [...this.threads.values()];
    this.threads.clear();
    for (const t of all) clearTimeout(t.timer);
    await Promise.all(all.map((t) => t.registry.stopAll()));
  }
}
