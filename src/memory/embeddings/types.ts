/**
 * Turns text into vectors for the memory store. The collection records `id` and the dimension it was built
 * with, so a store never mixes vectors of two embedders.
 */
export interface Embedder {
  /** Stable identity recorded on the collection, e.g. "local-hash-v1" or "openai-compatible:nomic-embed-text". */
  readonly id: string;
  /** Vector length (a remote embedder learns it from its first answer). */
  dimension(): Promise<number>;
  /**
   * The vector length when it is known without asking anyone: always for the offline embedder, after a first answer
   * for a remote one (undefined before). Absent: only dimension() tells.
   */
  knownDimension?(): number | undefined;
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

export interface EmbedderErrorOptions extends ErrorOptions {
  /** Worth another try later: the server was rate limiting, busy or overloaded, timed out, or dropped the connection. */
  transient?: boolean;
  /** How long the server asked to wait before the next request (`Retry-After`), when it said. */
  retryAfterMs?: number;
}

export class EmbedderError extends Error {
  readonly transient: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: EmbedderErrorOptions = {}) {
    const { transient, retryAfterMs, ...errorOptions } = options;
    super(message, errorOptions);
    this.transient = transient ?? false;
    this.retryAfterMs = retryAfterMs;
  }
}
