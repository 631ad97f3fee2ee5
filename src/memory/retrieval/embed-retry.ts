import { setTimeout as delay } from "node:timers/promises";
import { EmbedderError, type Embedder } from "../embeddings/types.js";
import type { Clock } from "../../platform/clock.js";
import type { EmbedWait, UpdateStop } from "./types.js";

/**
 * How the codebase index retries a batch that a remote embedder turned away for now (rate limited, overloaded,
 * timed out, connection dropped). A build of a large repository sends hundreds of requests in a row, which is what
 * trips a hosted API's per-minute limits; giving up on the first 429 would leave every large index half built.
 */
export interface RetryPolicy {
  /** Attempts per batch, the first included. */
  attempts: number;
  /** The first wait when the server did not say how long; doubled for each attempt after it. */
  firstDelayMs: number;
  /** The longest wait: a server asking for more (a daily quota) ends the update early, as its time box does. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, firstDelayMs: 1_000, maxDelayMs: 60_000 };

export interface RetryContext {
  clock: Clock;
  policy: RetryPolicy;
  /** When the update's time box ends (clock time); no wait may run past it. */
  deadline?: number;
  /** Checked while waiting: true ends the wait and the update (the session is ending). */
  shouldStop?: () => boolean;
  onWait?: (wait: EmbedWait) => void;
}

/** Slices of a wait between checks of shouldStop, so that a session ending mid-wait is not held up. */
const STOP_CHECK_MS = 200;

/** False when shouldStop ended the wait. */
async function pause(ms: number, shouldStop: (() => boolean) | undefined): Promise<boolean> {
  for (let left = ms; left > 0; left -= STOP_CHECK_MS) {
    if (shouldStop?.()) return false;
    await delay(Math.min(STOP_CHECK_MS, left));
  }
  return !shouldStop?.();
}

/**
 * The vectors of `texts`, trying again after a transient failure: after the wait the server asked for, else
 * after a doubling delay. A failure that is not transient, or the last attempt's, is thrown as it came; a wait that
 * would outlast the time box, the stop signal or the longest wait ends the update early instead (why is returned).
 */
export async function embedWithRetries(embedder: Embedder, texts: string[], ctx: RetryContext): Promise<number[][] | UpdateStop> {
  const { attempts, firstDelayMs, maxDelayMs } = ctx.policy;
  for (let attempt = 1; ; attempt++) {
    try {
      return await embedder.embedDocuments(texts);
    } catch (error) {
      if (!(error instanceof EmbedderError) || !error.transient || attempt >= attempts) throw error;
      const asked = error.retryAfterMs;
      if (asked !== undefined && asked > maxDelayMs) return { reason: "rate-limit", retryAfterMs: asked, detail: error.message };
      const waitMs = asked ?? Math.min(maxDelayMs, firstDelayMs * 2 ** (attempt - 1));
      if (ctx.deadline !== undefined && ctx.clock.now() + waitMs > ctx.deadline) return { reason: "time" };
      ctx.onWait?.({ waitMs, attempt, attempts, reason: error.message });
      if (!(await pause(waitMs, ctx.shouldStop))) return { reason: "stop" };
    }
  }
}
