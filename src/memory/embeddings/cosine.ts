import { EmbedderError } from "./types.js";

/**
 * Cosine similarity of two vectors of the same length, in [-1, 1]. A zero vector is similar to nothing (0), so
 * callers never see NaN.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) {
    throw new EmbedderError(`cosineSimilarity: vectors differ in length (${a.length} and ${b.length})`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}
