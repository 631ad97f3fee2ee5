import type { MemoryStoreSettings } from "../../platform/config/memory-settings.js";
import { logger } from "../../platform/logger.js";
import type { Clock } from "../../platform/clock.js";
import type { OpenedIndex, SharedChroma } from "./open-index.js";
import type { BuildProgress, CodeHit, CodeSearchQuery } from "./types.js";
import { errorMessage } from "../../platform/error-info.js";

/** What a search during a session gets: hits, or why there are none yet (never a wait for a build). */
export type CodebaseAnswer =
  /** `wordsOnly`: the question could not be embedded just now, so words alone ranked the hits. */
  | {
      state: "ready";
      hits: CodeHit[];
      wordsOnly?: boolean;
      /** The first build is still under way (how far it is): the hits come from the part indexed so far. */
      partial?: string;
    }
  | { state: "building"; detail: string }
  | { state: "unavailable"; detail: string };

/** The codebase index as the tools and the planner see it (src/tools depends on this, not on Chroma). */
export interface CodebaseSearch {
  search(query: CodeSearchQuery): Promise<CodebaseAnswer>;
  /** Starts opening and building in the background (idempotent), on memory's connection to Chroma when given. */
  begin(shared?: SharedChroma): void;
  /** Brings the index up to date in the background after the workspace may have changed. */
  refresh(): void;
}

export interface SessionIndexOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  settings: MemoryStoreSettings;
  /** A session's first build stops embedding after this long; the next refresh continues (default 120 s). */
  buildBudgetMs?: number;
}

const DEFAULT_BUILD_BUDGET_MS = 120_000;

/**
 * What a search during the first build says about it (to the model: the embeddings server's own words, with its
 * URL, stay in the log).
 */
function progressText(p: BuildProgress): string {
  const done = `indexed ${p.filesDone}/${p.filesTotal} files so far`;
  return p.phase === "wait" && p.wait
    ? `${done}; the embeddings server turned a batch away for now, trying again in ${Math.max(1, Math.round(p.wait.waitMs / 1000))} s`
    : done;
}

/**
 * A session's index: opened and built in the background once begun, searched only once its first update has
 * finished (until then a search says it is building and points at search_code), refreshed after every step that may
 * have changed files. A failure (Chroma unreachable) makes it unavailable for the session, once, never an error.
 */
export class SessionCodeIndex implements CodebaseSearch {
  private opened: OpenedIndex | undefined;
  private starting: Promise<void> | undefined;
  private ready = false;
  private failure: string | undefined;
  private progress = "";
  private closing = false;

  constructor(private readonly o: SessionIndexOptions) {}

  begin(shared?: SharedChroma): void {
    // A session that already ended (memory opened after it) starts nothing it would not stop.
    if (this.closing) return;
    this.starting ??= this.start(shared);
  }

  private async start(shared: SharedChroma | undefined): Promise<void> {
    try {
      const { openCodeIndex } = await import("./open-index.js");
      this.opened = await openCodeIndex({ root: this.o.root, env: this.o.env, clock: this.o.clock, settings: this.o.settings, ...(shared ? { shared } : {}) });
      await this.opened.index.update({
        timeBudgetMs: this.o.buildBudgetMs ?? DEFAULT_BUILD_BUDGET_MS,
        onProgress: (p) => (this.progress = progressText(p)),
        shouldStop: () => this.closing,
      });
      this.ready = true;
    } catch (error) {
      const message = errorMessage(error);
      // An index that an earlier session or `index build` left is worth searching although this update failed
      // (the embeddings server turning batches away, say): it is as fresh as it was, and the next refresh retries.
      if (this.opened && this.opened.index.stats().chunks > 0) {
        logger.warn(`index: update failed; searching the index as it was: ${message}`);
        this.ready = true;
        return;
      }
      this.failure = message;
      logger.warn(`index: unavailable for this session: ${this.failure}`);
    }
  }

  refresh(): void {
    if (!this.ready || !this.opened) return;
    this.opened.index.update({ timeBudgetMs: this.o.buildBudgetMs ?? DEFAULT_BUILD_BUDGET_MS, shouldStop: () => this.closing }).catch((error: unknown) => {
      logger.warn(`index: refresh failed: ${errorMessage(error)}`);
    });
  }

  /** Never starts the index itself: the session begins it once memory has opened (they share Chroma's server). */
  async search(query: CodeSearchQuery): Promise<CodebaseAnswer> {
    if (this.failure) return { state: "unavailable", detail: this.failure };
    // During the first build, what is indexed so far answers (marked partial); before anything is, nothing can.
    const partial = this.ready ? undefined : this.progress || "starting";
    if (!this.opened || (partial !== undefined && this.opened.index.stats().chunks === 0)) return { state: "building", detail: partial ?? "starting" };
    try {
      const answer = await this.opened.index.answer(query);
      // The embedder's own words (its URL among them) go to the log, not to the model.
      if (answer.wordsOnly !== undefined) logger.warn(`index: ranked by words only: ${answer.wordsOnly}`);
      return {
        state: "ready",
        hits: answer.hits,
        ...(answer.wordsOnly !== undefined ? { wordsOnly: true } : {}),
        ...(partial !== undefined ? { partial } : {}),
      };
    } catch (error) {
      return { state: "unavailable", detail: errorMessage(error) };
    }
  }

  /** Waits for a build under way to stop at its next batch, then stops the Chroma server if this process started it. */
  async close(): Promise<void> {
    this.closing = true;
    await this.starting?.catch(() => undefined);
    await this.opened?.index.idle();
    await this.opened?.close();
  }
}
