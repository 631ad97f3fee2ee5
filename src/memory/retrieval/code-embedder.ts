import type { EmbeddingSettings } from "../../platform/config/index.js";
import { createEmbedder, createLocalHashEmbedder, type Embedder } from "../embeddings/index.js";

/**
 * Vector length of the offline embedder for the codebase index: half of memory's. A local Chroma preallocates
 * every collection's vector index for 10,000 vectors, so each collection costs the server CPU in proportion to the
 * dimension when it is created and again whenever a server loads it (about 0.65 s at 2048 dimensions, 0.35 s at
 * 1024, measured here); a session loads the workspace's index every time. On bench/retrieval.ts recall@5 was 0.58
 * at 1024 against 0.50 at 2048 and 0.46 at 512 (the hashed features of code chunks collide less than that suggests).
 * Memory keeps 2048: its notes lose recall at 1024 (bench/memory-recall.ts, 87.5% to 84.5%).
 */
export const CODE_INDEX_LOCAL_DIMENSION = 1024;

/** The embedder the codebase index uses: memory's configured embedder, the offline one at its own dimension. */
export function createCodeEmbedder(settings: EmbeddingSettings): Embedder {
  if (settings.kind === "local") return createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION });
  return createEmbedder(settings);
}
