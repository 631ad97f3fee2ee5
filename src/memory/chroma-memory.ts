import type { Collection, Where } from "chromadb";
import type { Clock } from "../runtime/clock.js";
import type { Embedder } from "./embeddings/types.js";
import { extractMemories, type MemoryDraft } from "./extract.js";
import { formatRecall } from "./format.js";
import { listMemories, type ListFilter } from "./list.js";
import { fromChroma, memoryId, toMetadata } from "./records.js";
import type { MemoryHit, MemoryQuery, MemoryRecord, MemoryStore, SessionOutcome } from "./types.js";
import { and, kindsClause } from "./where.js";

export interface ChromaMemoryOptions {
  collection: Collection;
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

/** Long-term memory in a Chroma collection: vectors from our embedder, metadata for scope and kind. */
export class ChromaMemory implements MemoryStore {
  readonly enabled = true;
  private readonly mergeThreshold: number;
  private readonly minRecallScore: number;

  constructor(private readonly o: ChromaMemoryOptions) {
    this.mergeThreshold = o.mergeThreshold ?? 0.9;
    this.minRecallScore = o.minRecallScore ?? 0.12;
  }

  /** Adds memories, merging each into a near-duplicate of the same workspace and kind when there is one. */
  async add(drafts: MemoryDraft[], scope: { workspace: string; session: string }): Promise<{ id: string; merged: boolean }[]> {
    if (drafts.length === 0) return [];
    const vectors = await this.o.embedder.embedDocuments(drafts.map((d) => d.text));
    const now = this.o.clock.now();
    const results: { id: string; merged: boolean }[] = [];
    for (const [i, draft] of drafts.entries()) {
      const embedding = vectors[i] ?? [];
      const twin = await this.nearest(embedding, and({ workspace: scope.workspace }, { kind: draft.kind }));
      if (twin && twin.score >= this.mergeThreshold) {
        await this.o.collection.update({
          ids: [twin.id],
          documents: [draft.text],
          embeddings: [embedding],
          metadatas: [toMetadata({ ...twin, session: scope.session, source: draft.source || twin.source, updatedAt: now, mergedCount: twin.mergedCount + 1 })],
        });
        results.push({ id: twin.id, merged: true });
        continue;
      }
      const id = memoryId(scope.workspace, draft.kind, draft.text);
      await this.o.collection.upsert({
        ids: [id],
        documents: [draft.text],
        embeddings: [embedding],
        metadatas: [toMetadata({ kind: draft.kind, workspace: scope.workspace, session: scope.session, source: draft.source, createdAt: now, updatedAt: now, mergedCount: 0 })],
      });
      results.push({ id, merged: false });
    }
    return results;
  }

  private async nearest(embedding: number[], where: Where | undefined): Promise<(MemoryRecord & { score: number }) | null> {
    const hits = await this.query(embedding, where, 1, "");
    return hits[0] ?? null;
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
