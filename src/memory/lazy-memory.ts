import { logger } from "../platform/logger.js";
import type { MemoryRuntime } from "./open-memory.js";
import type { MemoryHit, MemoryQuery, MemoryStore, SessionOutcome } from "./types.js";

export interface LazyMemoryOptions {
  /** The caller tells the user itself whether memory opened (the CLI's notices); else a failure is logged. */
  reportsStatus?: boolean;
  /** How long a planner turn waits for a recall while memory opens (MemoryStore.recallWaitMs). */
  recallWaitMs?: number;
}

/**
 * Memory opened on demand or in the background: Chroma is started (or reached) on the first use, or from
 * `begin()` while other work goes on, and a failure to open leaves memory off with one warning, like a
 * session without it. Studio's dev server opens it on first use; a CLI or editor session begins opening it as it
 * starts, so that its first plan can recall.
 */
export class LazyMemory implements MemoryStore {
  private pending: Promise<MemoryRuntime> | null = null;
  private runtime: MemoryRuntime | null = null;

  constructor(
    /** Whether memory is on in the settings; the tool and recall are offered only then. */
    private readonly configured: boolean,
    private readonly open: () => Promise<MemoryRuntime>,
    private readonly options: LazyMemoryOptions = {},
  ) {}

  /** While memory is still opening it counts as on (its tool is offered); a search then waits for it. */
  get enabled(): boolean {
    return this.configured && (this.runtime === null || this.runtime.store.enabled);
  }

  get recallWaitMs(): number | undefined {
    return this.options.recallWaitMs;
  }

  /** Memory as opened, once it is (open or known to be off); null before. */
  get opened(): MemoryRuntime | null {
    return this.runtime;
  }

  /** Starts opening now (idempotent); resolves once memory is open or known to be off. */
  begin(): Promise<MemoryRuntime> {
    this.pending ??= this.open().then((runtime) => {
      this.runtime = runtime;
      if (!runtime.store.enabled && !this.options.reportsStatus) logger.warn(`memory is off: ${runtime.status}`);
      return runtime;
    });
    return this.pending;
  }

  private async store(): Promise<MemoryStore> {
    if (!this.configured) return this.runtime?.store ?? { enabled: false, recall: async () => [], search: async () => [], remember: async () => undefined };
    return (await this.begin()).store;
  }

  async recall(query: { task: string; workspace: string; limit: number }): Promise<string[]> {
    return (await this.store()).recall(query);
  }

  async search(query: MemoryQuery): Promise<MemoryHit[]> {
    return (await this.store()).search(query);
  }

  async remember(outcome: SessionOutcome): Promise<void> {
    return (await this.store()).remember(outcome);
  }

  /** Stops the Chroma server if it was started for this process (waiting for a start still under way). */
  async close(): Promise<void> {
    if (this.pending) await (await this.pending).close();
  }
}
