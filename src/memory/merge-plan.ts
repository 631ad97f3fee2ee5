import { cosineSimilarity } from "./embeddings/cosine.js";
import type { MemoryDraft } from "./extract.js";
import { memoryId } from "./memory-id.js";
import type { MemoryRecord } from "./types.js";

/** A stored memory nearest to a draft (same workspace and kind), with its cosine similarity. */
export type Twin = MemoryRecord & { score: number };

/** One write of a batch: its final text, vector and record; `stored` when it updates a memory that existed before. */
export interface PlannedWrite {
  record: MemoryRecord;
  embedding: number[];
  stored: boolean;
}

export interface MergePlan {
  results: { id: string; merged: boolean }[];
  writes: PlannedWrite[];
}

/**
 * Decides a batch of drafts as if they were added one by one: each merges into its nearest memory of the same
 * workspace and kind when that is similar enough, whether it was stored before (`twins`, found for the whole batch at
 * once) or written earlier in this batch; otherwise it is a new memory. Returns one write per memory touched.
 */
export function planMerges(
  drafts: readonly MemoryDraft[],
  vectors: readonly number[][],
  twins: readonly (Twin | null)[],
  o: { workspace: string; session: string; now: number; threshold: number },
): MergePlan {
  const writes = new Map<string, PlannedWrite>();
  const results: MergePlan["results"] = [];
  for (const [i, draft] of drafts.entries()) {
    const embedding = vectors[i] ?? [];
    let best: { record: MemoryRecord; score: number; stored: boolean } | null = null;
    const twin = twins[i];
    // A stored twin already rewritten in this batch is compared in its new form, below.
    if (twin && !writes.has(twin.id)) best = { record: twin, score: twin.score, stored: true };
    for (const write of writes.values()) {
      if (write.record.kind !== draft.kind) continue;
      const score = cosineSimilarity(embedding, write.embedding);
      if (!best || score > best.score) best = { record: write.record, score, stored: write.stored };
    }
    if (best && best.score >= o.threshold) {
      const { record } = best;
      const merged: MemoryRecord = {
        ...record,
        text: draft.text,
        session: o.session,
        source: draft.source || record.source,
        updatedAt: o.now,
        mergedCount: record.mergedCount + 1,
      };
      writes.set(record.id, { record: merged, embedding, stored: best.stored });
      results.push({ id: record.id, merged: true });
      continue;
    }
    const id = memoryId(o.workspace, draft.kind, draft.text);
    const record: MemoryRecord = {
      id,
      text: draft.text,
      kind: draft.kind,
      workspace: o.workspace,
      session: o.session,
      source: draft.source,
      createdAt: o.now,
      updatedAt: o.now,
      mergedCount: 0,
    };
    writes.set(id, { record, embedding, stored: false });
    results.push({ id, merged: false });
  }
  return { results, writes: [...writes.values()] };
}
