import { logger } from "../runtime/logger.js";
import type { MemoryRuntime } from "./open-memory.js";
import type { MemoryHit, MemoryQuery, MemoryStore, SessionOutcome } from "./types.js";

/**
 * Memory for a long-lived server (Studio's dev server): Chroma is started (or reached) on the first use, not when
 * the graph is loaded, and a failure to open leaves memory off with one warning, like a CLI session without it.
 */
export class LazyMemory implements MemoryStore {
  private opening: Promise<MemoryRuntime> | null = null;
  private runtime: MemoryRuntime | null = null;

  constructor(
    /** Whether memory is on in the settings; the tool and recall are offered only then. */
    private readonly configured: boolean,
    private readonly open: () => Promise<MemoryRuntime>,
  ) {}

  get enabled(): boolean {
    return this.configured && (this.runtime === null || this.runtime.store.enabled);
  }

  private async store(): Promise<MemoryStore> {
    if (!this.configured) return this.runtime?.store ?? { enabled: false, recall: async () => [], search: async () => [], remember: async () => undefined };
    this.opening ??= this.open().then((runtime) => {
      this.runtime = runtime;
      if (!runtime.store.enabled) logger.warn(`memory is off: ${runtime.status}`);
      return runtime;
    });
    return (await this.opening).store;
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

  /** Stops the Chroma server if it was started for this process. */
  async close(): Promise<void> {
    if (this.opening) await (await this.opening).close();
  }
}
