import type { Collection, Where } from "chromadb";
import type { Clock } from "../platform/clock.js";
import type { VectorWriter } from "./chroma/record-writes.js";
import type { Embedder } from "./embeddings/types.js";
import { extractMemories, type MemoryDraft } from "./extract.js";
import { formatRecall } from "./format.js";
import { listMemories, type ListFilter } from "./list.js";
import { planMerges, type Twin } from "./merge-plan.js";
import { fromChroma, toMetadata } from "./records.js";
import type { MemoryHit, MemoryQuery, MemoryRecord, MemoryStore, SessionOutcome } from "./types.js";
import { and, kindsClause } from "./where.js";

export interface ChromaMemoryOptions {
  collection: Collection;
  /** Writes the vectors (base64, as Chroma reads them fastest). */
  writer: VectorWriter;
  embedder: Embedder;
  clock: Clock;
  /** Similarity at or above which a new memory is merged into an existing one of the same workspace and kind. */
  mergeThreshold?: number;
  /** Recall ignores memories less similar than this to the task. */
  minRecallScore?: number;
}

export interface MemoryStats {
  count: number;
  byKind: Record<string, number>;
  byWorkspace: Record<string, number>;
  embedder: string;
  dimension: number;
  collection: string;
}

/** How many nearest memories a batch's one near-duplicate query returns per draft when it spans several kinds. */
const NEAREST_ACROSS_KINDS = 4;

/** Long-term memory in a Chroma collection: vectors from our embedder, metadata for scope and kind. */
export class ChromaMemory implements MemoryStore {
  readonly enabled = true;
  private readonly mergeThreshold: number;
  private readonly minRecallScore: number;

  constructor(private readonly o: ChromaMemoryOptions) {
    this.mergeThreshold = o.mergeThreshold ?? 0.9;
    this.minRecallScore = o.minRecallScore ?? 0.12;
  }

  /**
   * Adds memories, merging each into a near-duplicate of the same workspace and kind when there is one (also one
   * written earlier in the same batch). A batch costs one query (rarely a second) and at most two writes, not a
   * query and a write per memory: a session's end writes a dozen or more.
   */
  async add(drafts: MemoryDraft[], scope: { workspace: string; session: string }): Promise<{ id: string; merged: boolean }[]> {
    if (drafts.length === 0) return [];
    const vectors = await this.o.embedder.embedDocuments(drafts.map((d) => d.text));
    const twins = await this.storedTwins(drafts, vectors, scope.workspace);
    const { results, writes } = planMerges(drafts, vectors, twins, { ...scope, now: this.o.clock.now(), threshold: this.mergeThreshold });
    const payload = (list: typeof writes) => ({
      ids: list.map((w) => w.record.id),
      documents: list.map((w) => w.record.text),
      embeddings: list.map((w) => w.embedding),
      metadatas: list.map((w) => toMetadata(w.record)),
    });
    const updates = writes.filter((w) => w.stored);
    const inserts = writes.filter((w) => !w.stored);
    // Different ids (memories that existed before, new ones): the two writes cannot interfere, so neither waits.
    await Promise.all([
      updates.length > 0 ? this.o.writer.write(this.o.collection, "update", payload(updates)) : undefined,
      inserts.length > 0 ? this.o.writer.write(this.o.collection, "upsert", payload(inserts)) : undefined,
    ]);
    return results;
  }

  /**
   * The nearest stored memory of the same workspace and kind for each draft that could merge into it. One query
   * for the whole batch (every vector, every kind of the batch, the nearest few each): the end of every session
   * waits for it, and a request costs the client more than the server's search. A draft whose nearest few are all
   * of other kinds, the farthest of them still similar enough to merge, might have a mergeable twin of its own kind
   * further down: only those drafts are asked again, by kind. A twin below the threshold changes nothing (planMerges
   * merges only at or above it), so leaving one unfound is exact.
   */
  private async storedTwins(drafts: readonly MemoryDraft[], vectors: readonly number[][], workspace: string): Promise<(Twin | null)[]> {
    const twins: (Twin | null)[] = drafts.map(() => null);
    const kinds = [...new Set(drafts.map((d) => d.kind))];
    const all = drafts.map((_, i) => i);
    const nearest = kinds.length === 1 ? 1 : NEAREST_ACROSS_KINDS;
    const unsure = await this.findTwins(twins, drafts, vectors, all, and({ workspace }, kindsClause(kinds)), nearest);
    await Promise.all(
      kinds.map((kind) => {
        const again = unsure.filter((i) => drafts[i]?.kind === kind);
        return again.length > 0 ? this.findTwins(twins, drafts, vectors, again, and({ workspace }, { kind }), 1) : undefined;
      }),
    );
    return twins;
  }

  /** One query for the drafts at `indexes`; fills `twins` and returns the drafts whose answer was not conclusive. */
  private async findTwins(
    twins: (Twin | null)[],
    drafts: readonly MemoryDraft[],
    vectors: readonly number[][],
    indexes: number[],
    where: Where | undefined,
    nResults: number,
  ): Promise<number[]> {
    const result = await this.o.collection.query({
      queryEmbeddings: indexes.map((i) => vectors[i] ?? []),
      nResults,
      ...(where ? { where } : {}),
      include: ["documents", "metadatas", "distances"],
    });
    const unsure: number[] = [];
    indexes.forEach((draftIndex, q) => {
      const ids = result.ids[q] ?? [];
      const scores = ids.map((_, k) => 1 - (result.distances[q]?.[k] ?? 1));
      for (const [k, id] of ids.entries()) {
        const record = fromChroma(id, result.documents[q]?.[k], result.metadatas[q]?.[k]);
        if (record.kind !== drafts[draftIndex]?.kind) continue;
        twins[draftIndex] = { ...record, score: scores[k] ?? 0 };
        return;
      }
      if (ids.length === nResults && (scores[ids.length - 1] ?? 0) >= this.mergeThreshold) unsure.push(draftIndex);
    });
    return unsure;
  }

  private async query(embedding: number[], where: Where | undefined, limit: number, workspace: string): Promise<MemoryHit[]> {
    if (limit <= 0) return [];
    const result = await this.o.collection.query({
      queryEmbeddings: [embedding],
      nResults: limit,
      ...(where ? { where } : {}),
      include: ["documents", "metadatas", "distances"],
    });
    const ids = result.ids[0] ?? [];
    return ids.map((id, i) => {
      const record = fromChroma(id, result.documents[0]?.[i], result.metadatas[0]?.[i]);
      const distance = result.distances[0]?.[i] ?? 1;
      return { ...record, score: 1 - distance, sameWorkspace: record.workspace === workspace };
    });
  }

  /**
   * This workspace first; with scope "all", other workspaces fill the remaining places, best first. Usually this
   * workspace fills them all and one query is enough. Otherwise the fill query needs no `$ne` filter (a pre-filter
   * over every other workspace's ids, slower than the search itself): when this workspace has fewer than `limit`
   * matches, the best others are all among the best `limit` overall.
   */
  async search(q: MemoryQuery): Promise<MemoryHit[]> {
    const embedding = await this.o.embedder.embedQuery(q.query);
    const kinds = kindsClause(q.kinds);
    const local = await this.query(embedding, and({ workspace: q.workspace }, kinds), q.limit, q.workspace);
    if (q.scope === "workspace" || local.length >= q.limit) return local;
    const best = await this.query(embedding, kinds, q.limit, q.workspace);
    return [...local, ...best.filter((h) => !h.sameWorkspace).slice(0, q.limit - local.length)];
  }

  async recall(query: { task: string; workspace: string; limit: number }): Promise<string[]> {
    const hits = await this.search({ query: query.task, workspace: query.workspace, limit: query.limit, scope: "all" });
    return formatRecall(hits.filter((h) => h.score >= this.minRecallScore));
  }

  async remember(outcome: SessionOutcome): Promise<void> {
    await this.add(extractMemories(outcome), { workspace: outcome.workspace, session: outcome.sessionId });
  }

  async list(filter: ListFilter): Promise<MemoryRecord[]> {
    return listMemories(this.o.collection, filter);
  }

  async forget(id: string): Promise<boolean> {
    const existing = await this.o.collection.get({ ids: [id], include: [] });
    if (existing.ids.length === 0) return false;
    await this.o.collection.delete({ ids: [id] });
    return true;
  }

  async stats(): Promise<MemoryStats> {
    const all = await this.o.collection.get({ include: ["metadatas"] });
    const byKind: Record<string, number> = {};
    const byWorkspace: Record<string, number> = {};
    for (const [i, id] of all.ids.entries()) {
      const r = fromChroma(id, "", all.metadatas[i]);
      byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
      byWorkspace[r.workspace] = (byWorkspace[r.workspace] ?? 0) + 1;
    }
    return {
      count: all.ids.length,
      byKind,
      byWorkspace,
      embedder: this.o.embedder.id,
      dimension: await this.o.embedder.dimension(),
      collection: this.o.collection.name,
    };
  }
}
