import { logger } from "../platform/logger.js";
import type { MemoryHit, MemoryQuery, MemoryStore, SessionOutcome } from "./types.js";
import { errorMessage } from "../platform/error-info.js";

/**
 * Memory must never break a session: the first failure (Chroma gone, embedder down) turns memory off for
 * the rest of the session and is reported once; every later call is a quiet no-op.
 */
export class ResilientMemory implements MemoryStore {
  private failed = false;

  constructor(
    private readonly inner: MemoryStore,
    private readonly onOff: (reason: string) => void,
    /** Turns a failure into the one line reported (e.g. a refused token names the server); its message by default. */
    private readonly describe: (error: unknown) => string = (error) => errorMessage(error),
  ) {}

  get enabled(): boolean {
    return !this.failed && this.inner.enabled;
  }

  private async guard<T>(fallback: T, run: () => Promise<T>): Promise<T> {
    if (!this.enabled) return fallback;
    try {
      return await run();
    } catch (error) {
      this.failed = true;
      const reason = this.describe(error);
      logger.debug(`memory failed: ${reason}`);
      this.onOff(reason);
      return fallback;
    }
  }

  recall(query: { task: string; workspace: string; limit: number }): Promise<string[]> {
    return this.guard<string[]>([], () => this.inner.recall(query));
  }

  search(query: MemoryQuery): Promise<MemoryHit[]> {
    // The researcher's tool reports its own error; still switch memory off so nothing else waits on it.
    return this.guard<MemoryHit[]>([], () => this.inner.search(query));
  }

  remember(outcome: SessionOutcome): Promise<void> {
    return this.guard<void>(undefined, () => this.inner.remember(outcome));
  }
}
