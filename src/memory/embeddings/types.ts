/**
 * Turns text into vectors for the memory store. The collection records `id` and the dimension it was built
 * with, so a store never mixes vectors of two embedders.
 */
export interface Embedder {
  /** Stable identity recorded on the collection, e.g. "local-hash-v1" or "openai-compatible:nomic-embed-text". */
  readonly id: string;
  /** Vector length (a remote embedder learns it from its first answer). */
  dimension(): Promise<number>;
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

export class EmbedderError extends Error {}
