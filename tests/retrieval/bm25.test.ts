import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/retrieval/bm25.js";
import { chunkFile } from "../../src/retrieval/chunk-file.js";
import { lexicalTerms } from "../../src/retrieval/lexical.js";

/**
 * The hand-written BM25 index against MiniSearch, which it replaced (see src/retrieval/bm25.ts): the same chunks
 * (this repository's own sources, chunked as the codebase index chunks them), the same questions, the same
 * scores and order, before and after documents are removed and compacted away.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

interface Doc {
  id: string;
  path: string;
  symbol: string;
  text: string;
}

function corpus(): Doc[] {
  const docs: Doc[] = [];
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const rel = path.relative(SRC, path.join(entry.parentPath, entry.name));
    chunkFile(rel, readFileSync(path.join(SRC, rel), "utf8")).forEach((c, n) => docs.push({ id: `${rel}#${n}`, path: rel, symbol: c.symbol, text: c.text }));
  }
  return docs;
}

const QUERIES = [
  "parseVersion",
  "debounce",
  "where do we keep paths inside the workspace, symlinks included",
  "retry the model when it returns malformed tool calls",
  "stop a session when the money spent exceeds the budget",
  "sandbox bubblewrap network",
  "checkpoint checkpoint sqlite", // a repeated word counts twice in both
  "chroma server lease heartbeat",
];
const BOOSTS = [
  { symbol: 3, path: 2, text: 1 },
  { symbol: 1, path: 1, text: 1 },
];

function miniSearchOf(docs: readonly Doc[]): MiniSearch<Doc> {
  const search = new MiniSearch<Doc>({ fields: ["symbol", "path", "text"], storeFields: ["path"], tokenize: (t) => lexicalTerms(t), processTerm: (t) => t });
  search.addAll(docs);
  return search;
}

function expectSameAnswers(ours: Bm25Index, theirs: MiniSearch<Doc>, allow?: (p: string) => boolean): void {
  for (const query of QUERIES) {
    const terms = lexicalTerms(query);
    for (const boost of BOOSTS) {
      const expected = theirs
        .search(terms.join(" "), { tokenize: (q) => q.split(" "), combineWith: "OR", boost, ...(allow ? { filter: (r) => allow(String(r.path)) } : {}) })
        .slice(0, 60);
      const got = ours.query(terms, 60, [boost.symbol, boost.path, boost.text], allow);
      expect(got.length, query).toBe(expected.length);
      got.forEach((hit, i) => {
        const want = expected[i];
        expect(hit.score, `${query} #${i}`).toBeCloseTo(want?.score ?? NaN, 9);
        // Equal scores may come in either order; a different score at a rank is a different ranking.
        if (hit.id !== want?.id) expect(Math.abs(hit.score - (want?.score ?? NaN))).toBeLessThan(1e-9);
      });
    }
  }
}

describe("Bm25Index scores as MiniSearch did", () => {
  const docs = corpus();

  it("on this repository's chunks, for names and plain questions, with either field weighting and a path filter", () => {
    expect(docs.length).toBeGreaterThan(1_000);
    const ours = new Bm25Index(3, lexicalTerms);
    ours.add(docs.map((d) => ({ id: d.id, path: d.path, fields: [d.symbol, d.path, d.text] })));
    expect(ours.size).toBe(docs.length);
    const theirs = miniSearchOf(docs);
    expectSameAnswers(ours, theirs);
    expectSameAnswers(ours, theirs, (p) => p.startsWith("retrieval/"));
  });

  it("after removals, before and after the removed documents' postings are compacted away, and with them added again", async () => {
    const ours = new Bm25Index(3, lexicalTerms, 500);
    await ours.addMany(docs.map((d) => ({ id: d.id, path: d.path, fields: [d.symbol, d.path, d.text] })));
    const theirs = miniSearchOf(docs);
    // Two of every three: more removed than left, past the threshold given (500), so the postings are compacted.
    const gone = docs.filter((_, i) => i % 3 !== 0).map((d) => d.id);
    // Below the compaction threshold first, then past it.
    // MiniSearch is vacuumed before it is asked: until then it counts a removed document in a term's document
    // frequency for the documents it scores before meeting it (ours counts only live ones).
    ours.remove(gone.slice(0, 100));
    theirs.discardAll(gone.slice(0, 100));
    await theirs.vacuum();
    expectSameAnswers(ours, theirs);
    ours.remove([...gone.slice(100), "no-such-id"]);
    theirs.discardAll(gone.slice(100));
    await theirs.vacuum();
    expect(ours.size).toBe(docs.length - gone.length);
    expectSameAnswers(ours, theirs);
    const back = docs.filter((d) => gone.includes(d.id)).slice(0, 200);
    ours.add(back.map((d) => ({ id: d.id, path: d.path, fields: [d.symbol, d.path, d.text] })));
    theirs.addAll(back);
    expectSameAnswers(ours, theirs);
  });
});
