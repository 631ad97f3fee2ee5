import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * An in-memory BM25+ index over a few fields, for exact terms only, scored the way MiniSearch scores (per field
 * BM25+ with k 1.2, b 0.7, d 0.5, a field's length being its distinct terms, field boosts, a repeated query term
 * counted each time, the sum times the number of distinct query terms matched). MiniSearch served here before;
 * it is written by hand now because MiniSearch keeps every term in a radix tree for prefix and fuzzy search, which
 * this index never asks for, and that tree is what a large repository paid for: 49,905 chunks took 8 s of CPU and
 * about 250 MB to index in every session, against about 1 s and a fraction of the memory with plain posting lists
 * (README, Codebase retrieval). tests/retrieval/bm25.test.ts checks the scores against MiniSearch's.
 */

export interface Bm25Doc {
  id: string;
  /** Kept for the `allow` filter of a query. */
  path: string;
  /** One string per field, in the index's field order. */
  fields: readonly string[];
}

export interface Bm25Hit {
  id: string;
  score: number;
}

const K = 1.2;
const B = 0.7;
const D = 0.5;
/** Documents indexed between two turns of the event loop in addMany. */
const SLICE = 200;
/** Removed documents' postings are dropped once there are this many and more than live ones. */
const COMPACT_AT = 5_000;

export class Bm25Index {
  /** Slot → id; undefined once removed. Slots are never reused. */
  private readonly ids: (string | undefined)[] = [];
  private readonly paths: string[] = [];
  /** Per field, slot → distinct terms in that field. */
  private readonly lengths: number[][];
  private readonly totals: number[];
  private readonly slotOf = new Map<string, number>();
  /** Term → per field the postings, flat: slot, term frequency, slot, term frequency… */
  private readonly postings = new Map<string, (number[] | undefined)[]>();
  private dead = 0;

  constructor(
    private readonly fieldCount: number,
    private readonly tokenize: (text: string) => string[],
    private readonly compactAt = COMPACT_AT,
  ) {
    this.lengths = Array.from({ length: fieldCount }, () => []);
    this.totals = new Array<number>(fieldCount).fill(0);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds documents whose id is not in the index yet (one already there is left as it is). */
  add(docs: readonly Bm25Doc[]): void {
    for (const doc of docs) if (!this.slotOf.has(doc.id)) this.addOne(doc);
  }

  /** The same, with a turn of the event loop after every slice of documents. */
  async addMany(docs: readonly Bm25Doc[]): Promise<void> {
    for (let i = 0; i < docs.length; i += SLICE) {
      if (i > 0) await nextTurn();
      this.add(docs.slice(i, i + SLICE));
    }
  }

  private addOne(doc: Bm25Doc): void {
    const slot = this.ids.length;
    this.ids.push(doc.id);
    this.paths.push(doc.path);
    this.slotOf.set(doc.id, slot);
    for (let field = 0; field < this.fieldCount; field++) {
      const counts = new Map<string, number>();
      for (const term of this.tokenize(doc.fields[field] ?? "")) if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
      (this.lengths[field] as number[])[slot] = counts.size;
      this.totals[field] = (this.totals[field] ?? 0) + counts.size;
      for (const [term, tf] of counts) {
        let byField = this.postings.get(term);
        if (!byField) this.postings.set(term, (byField = new Array<number[] | undefined>(this.fieldCount)));
        (byField[field] ??= []).push(slot, tf);
      }
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      this.slotOf.delete(id);
      this.ids[slot] = undefined;
      for (let field = 0; field < this.fieldCount; field++) this.totals[field] = (this.totals[field] ?? 0) - ((this.lengths[field] as number[])[slot] ?? 0);
      this.dead++;
    }
    if (this.dead >= this.compactAt && this.dead > this.slotOf.size) this.compact();
  }

  /** Drops removed documents' postings (and terms no live document has). */
  private compact(): void {
    for (const [term, byField] of this.postings) {
      let any = false;
      byField.forEach((list, field) => {
        if (!list) return;
        const kept: number[] = [];
        for (let i = 0; i < list.length; i += 2) if (this.ids[list[i] as number] !== undefined) kept.push(list[i] as number, list[i + 1] as number);
        byField[field] = kept.length > 0 ? kept : undefined;
        any ||= kept.length > 0;
      });
      if (!any) this.postings.delete(term);
    }
    this.dead = 0;
  }

  /**
   * Documents matching any of `terms`, best first: `boosts` weighs each field, `allow` filters by path. `terms`
   * are already index terms (no tokenizing here).
   */
  query(terms: readonly string[], limit: number, boosts: readonly number[], allow?: (path: string) => boolean): Bm25Hit[] {
    const n = this.slotOf.size;
    if (n === 0) return [];
    const times = new Map<string, number>();
    for (const term of terms) if (term) times.set(term, (times.get(term) ?? 0) + 1);
    const scores = new Map<number, number>();
    const matched = new Map<number, number>();
    for (const [term, repeats] of times) {
      const byField = this.postings.get(term);
      if (!byField) continue;
      const seen = new Set<number>();
      for (let field = 0; field < this.fieldCount; field++) {
        const list = byField[field];
        if (!list) continue;
        let matching = 0;
        for (let i = 0; i < list.length; i += 2) if (this.ids[list[i] as number] !== undefined) matching++;
        if (matching === 0) continue;
        const idf = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
        const average = (this.totals[field] ?? 0) / n;
        const weight = repeats * (boosts[field] ?? 1);
        const lengths = this.lengths[field] as number[];
        for (let i = 0; i < list.length; i += 2) {
          const slot = list[i] as number;
          if (this.ids[slot] === undefined) continue;
          const tf = list[i + 1] as number;
          const bm25 = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * (lengths[slot] ?? 0)) / average)));
          scores.set(slot, (scores.get(slot) ?? 0) + weight * bm25);
          if (!seen.has(slot)) {
            seen.add(slot);
            matched.set(slot, (matched.get(slot) ?? 0) + 1);
          }
        }
      }
    }
    const hits: { slot: number; score: number }[] = [];
    for (const [slot, score] of scores) {
      if (allow && !allow(this.paths[slot] ?? "")) continue;
      hits.push({ slot, score: score * (matched.get(slot) ?? 1) });
    }
    hits.sort((a, b) => b.score - a.score || a.slot - b.slot);
    return hits.slice(0, limit).map((h) => ({ id: this.ids[h.slot] as string, score: h.score }));
  }
}
