import type { Collection } from "chromadb";
import { EmbedderError, type Embedder } from "../embeddings/types.js";
import { pathFilter, snippetOf } from "./chunk-text.js";
import type { IndexStore } from "./index-store.js";
import { lexicalTerms } from "./lexical.js";
import { fuse, looksLikeName, WEIGHTS, type Candidate, type Scored } from "./rank.js";
import type { CodeHit, CodeSearchQuery } from "./types.js";

export type { StoredChunk } from "./types.js";

export type SearchMode = "hybrid" | "vector" | "lexical";

/** Hits, best first; `wordsOnly` (the embedder's error) when the question could not be embedded and words alone ranked them. */
export interface SearchAnswer {
  hits: CodeHit[];
  wordsOnly?: string;
}

/** What a ranking reads: the index's chunks and BM25 side in SQLite, its vectors in Chroma. */
export interface RankSources {
  store: IndexStore;
  collection: Collection;
  embedder: Embedder;
}

/** Candidates each side brings to the fusion. */
const CANDIDATES = 60;

/** Ranks the index's chunks for a question: vector candidates from Chroma, BM25 ones from SQLite, fused (rank.ts). */
export async function rankChunks(src: RankSources, q: CodeSearchQuery, mode: SearchMode): Promise<SearchAnswer> {
  const limit = q.limit ?? 8;
  const allow = pathFilter(q.path);
  const terms = lexicalTerms(q.query);
  let vector: Scored[] = [];
  let wordsOnly: string | undefined;
  if (mode !== "lexical") {
    try {
      vector = await vectorCandidates(src, q.query, allow);
    } catch (error) {
      // A remote embedder turning the question away (rate limited by this index's own build, say): words still
      // find names and comments, which is better than no answer.
      if (mode !== "hybrid" || !(error instanceof EmbedderError)) throw error;
      wordsOnly = error.message;
    }
  }
  const nameQuery = looksLikeName(q.query);
  const lexical = mode === "vector" ? [] : src.store.query(terms, CANDIDATES, allow, { namesCountMore: nameQuery });
  // Only chunks the store knows: a vector Chroma still holds for a chunk written there but not yet here is left out.
  const chunks = src.store.chunks([...vector, ...lexical].map((s) => s.id));
  const candidates: ReadonlyMap<string, Candidate> = chunks;
  // Vector or BM25 alone (the benchmark's baselines) have no file-level signals.
  const weights =
    mode === "vector"
      ? { vector: 1, lexical: 0, path: 0, privateModule: 1 }
      : mode === "lexical"
        ? { vector: 0, lexical: 1, path: 0, privateModule: 1 }
        : wordsOnly !== undefined
          ? { ...WEIGHTS, vector: 0, lexical: 1 }
          : WEIGHTS;
  const ranked = fuse(vector, lexical, candidates, new Set(terms), nameQuery, weights);
  const hits = ranked.slice(0, limit).flatMap((s) => {
    const c = chunks.get(s.id);
    return c
      ? [
          {
            path: c.path,
            startLine: c.startLine,
            endLine: c.endLine,
            symbol: c.symbol,
            kind: c.kind,
            score: Number(s.score.toFixed(4)),
            snippet: snippetOf(c.text),
          },
        ]
      : [];
  });
  return { hits, ...(wordsOnly !== undefined ? { wordsOnly } : {}) };
}

async function vectorCandidates(src: RankSources, query: string, allow: ((p: string) => boolean) | undefined): Promise<Scored[]> {
  const { chunks } = src.store.counts();
  if (chunks === 0) return [];
  const embedding = await src.embedder.embedQuery(query);
  // With a path filter, ask for more and filter here: Chroma's where has no prefix match.
  const nResults = Math.min(chunks, allow ? CANDIDATES * 5 : CANDIDATES);
  const result = await src.collection.query({ queryEmbeddings: [embedding], nResults, include: ["distances", "metadatas"] });
  const ids = result.ids[0] ?? [];
  const distances = result.distances[0] ?? [];
  const metadatas = result.metadatas[0] ?? [];
  return ids
    .map((id, i) => ({ id, score: Math.max(0, 1 - (distances[i] ?? 1)), path: metadatas[i]?.path }))
    .filter((s) => !allow || (typeof s.path === "string" && allow(s.path)))
    .slice(0, CANDIDATES)
    .map(({ id, score }) => ({ id, score }));
}
