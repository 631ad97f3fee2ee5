/**
 * The index's store (src/memory/retrieval/index-store.ts): chunks, manifest and the BM25 side in a real SQLite file, as two
 * sessions of one workspace share it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ftsToken, IndexStore, IndexStoreError } from "../../../src/memory/retrieval/index-store.js";
import { lexicalTerms } from "../../../src/memory/retrieval/lexical.js";
import type { StoredChunk } from "../../../src/memory/retrieval/types.js";

const chunk = (id: string, file: string, symbol: string, text: string): StoredChunk => ({
  id,
  path: file,
  startLine: 1,
  endLine: 3,
  symbol,
  kind: "function",
  text,
});

const DOCS: StoredChunk[] = [
  chunk("a", "src/is-empty.ts", "isEmpty", "/** Checks whether a value has nothing in it. */\nexport function isEmpty(value) { return size(value) === 0; }"),
  chunk(
    "b",
    "src/compact.ts",
    "compact",
    "/** Creates an array with all falsey values removed. */\nexport function compact(array) { return array.filter(Boolean); }",
  ),
  chunk("c", "src/to-string.ts", "toString", "/** Converts a value to text. */\nexport function toString(value) { return `${value}`; }"),
  // "empty" and "string" are common words in comments, rare in names: as in a real library.
  ...Array.from({ length: 6 }, (_, i) =>
    chunk(
      `f${i}`,
      `src/other${i}.ts`,
      `other${i}`,
      `/** Returns a new array of values ${i}; empty strings count as values too. */\nexport function other${i}(array) { return array.slice(${i}); }`,
    ),
  ),
];

const FILE = { hash: "h1", size: 100, mtimeMs: 1 };
const dirs: string[] = [];
const stores: IndexStore[] = [];

function open(file = ":memory:"): IndexStore {
  const store = new IndexStore(file);
  stores.push(store);
  return store;
}

function filled(file?: string): IndexStore {
  const store = open(file);
  for (const d of DOCS) store.replaceFile(d.path, FILE, [d]);
  return store;
}

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-index-store-"));
  dirs.push(dir);
  return path.join(dir, "nested", "index.sqlite");
}

afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("IndexStore", () => {
  it("ranks the chunk whose words answer a plain question above one whose name merely shares a common word", () => {
    const terms = lexicalTerms("remove falsey values like empty strings from an array");
    const plain = filled().query(terms, 9, undefined, { namesCountMore: false });
    expect(plain[0]?.id).toBe("b");
    // Weighing names more, as for a name query, lifts isEmpty for its name: the false lead a question avoids.
    const named = filled().query(terms, 9, undefined, { namesCountMore: true });
    const share = (hits: { id: string; score: number }[]) => (hits.find((h) => h.id === "a")?.score ?? 0) / (hits[0]?.score ?? 1);
    expect(share(named)).toBeGreaterThan(share(plain));
  });

  it("puts a name first for a query that is a name, scores higher-is-better, and finds nothing for no terms", () => {
    const store = filled();
    expect(store.query(lexicalTerms("isEmpty"), 3)[0]?.id).toBe("a");
    expect(store.query(lexicalTerms("to string"), 3)[0]?.id).toBe("c");
    const hits = store.query(lexicalTerms("array values"), 5);
    expect(hits.length).toBe(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]?.score ?? 0).toBeGreaterThanOrEqual(hits[i]?.score ?? 0);
    expect(store.query([], 3)).toEqual([]);
  });

  it("filters by path inside the query, and forgets a file's chunks when the file leaves the index", () => {
    const store = filled();
    expect(store.query(lexicalTerms("value"), 3, (p) => p.startsWith("src/compact")).map((h) => h.id)).toEqual(["b"]);
    store.replaceFile("src/compact.ts", undefined, []);
    expect(store.query(lexicalTerms("falsey"), 3)).toEqual([]);
    expect(store.counts()).toEqual({ files: DOCS.length - 1, chunks: DOCS.length - 1 });
    expect(store.file("src/compact.ts")).toBeUndefined();
    expect(store.chunks(["a", "b"]).size).toBe(1);
  });

  it("replaces a file's chunks whole when it changes", () => {
    const store = filled();
    store.replaceFile("src/compact.ts", { hash: "h2", size: 120, mtimeMs: 2 }, [
      chunk("b2", "src/compact.ts", "compact", "/** Drops holes from a sparse list. */"),
    ]);
    expect(store.query(lexicalTerms("falsey"), 3)).toEqual([]);
    expect(store.query(lexicalTerms("sparse holes"), 3)[0]?.id).toBe("b2");
    expect(store.file("src/compact.ts")).toEqual({ hash: "h2", size: 120, mtimeMs: 2 });
    expect(store.chunks(["b2"]).get("b2")).toMatchObject({ path: "src/compact.ts", symbol: "compact", startLine: 1, endLine: 3, kind: "function" });
  });

  it("keeps words that are not plain ASCII whole, and takes FTS5's own syntax in a question as words", () => {
    const store = open();
    store.replaceFile("src/i18n.ts", FILE, [chunk("u", "src/i18n.ts", "grüße", "/** Sagt grüße zum café. */")]);
    expect(ftsToken("café")).toMatch(/^x[0-9a-f]+$/);
    expect(store.query(lexicalTerms("café"), 3)[0]?.id).toBe("u");
    expect(() => store.query(['"', "AND", "NEAR(", "*", "col:"], 3)).not.toThrow();
  });

  it("lives in a file: a second connection (another session) sees the chunks, and its writes change the version", async () => {
    const file = tempFile();
    const first = filled(file);
    first.reset("collection-1");
    await first.addFromCollection(DOCS.map((c) => ({ chunk: c, file: FILE })));
    const second = open(file);
    expect(second.collectionId()).toBe("collection-1");
    expect(second.counts()).toEqual({ files: DOCS.length, chunks: DOCS.length });
    expect(second.query(lexicalTerms("falsey"), 1)[0]?.id).toBe("b");
    const before = first.version();
    // Counts are kept between reads (an update reports them each time), and follow the other connection's writes.
    expect(first.counts()).toEqual({ files: DOCS.length, chunks: DOCS.length });
    second.replaceFile("src/compact.ts", undefined, []);
    expect(first.version()).not.toBe(before);
    expect(first.query(lexicalTerms("falsey"), 1)).toEqual([]);
    expect(first.counts()).toEqual({ files: DOCS.length - 1, chunks: DOCS.length - 1 });
    first.replaceFile("src/compact.ts", FILE, [DOCS[1] as StoredChunk]);
    expect(first.counts()).toEqual({ files: DOCS.length, chunks: DOCS.length });
  });

  it("rebuilds in slices, letting other work run between them (a session's model calls, output, Ctrl-C)", async () => {
    const store = open();
    const many = Array.from({ length: 1_000 }, (_, i) => ({
      chunk: chunk(`m${i}`, `src/m${i}.ts`, `m${i}`, `/** Module ${i}. */\nexport const m${i} = ${i};`),
      file: FILE,
    }));
    const seen: number[] = [];
    let timer = setTimeout(function look() {
      seen.push(store.counts().chunks);
      timer = setTimeout(look, 0);
    }, 0);
    await store.addFromCollection(many);
    clearTimeout(timer);
    expect(store.counts()).toEqual({ files: 1_000, chunks: 1_000 });
    expect(seen.filter((n) => n > 0 && n < 1_000).length).toBeGreaterThanOrEqual(2);
    expect(store.query(lexicalTerms("m737"), 1)[0]?.id).toBe("m737");
  });

  it("says which file it cannot open, in one line, when its folder cannot be made", () => {
    const blocker = tempFile().replace("nested/index.sqlite", "a-file");
    fs.writeFileSync(blocker, "");
    const opening = () => new IndexStore(path.join(blocker, "index.sqlite"));
    expect(opening).toThrow(IndexStoreError);
    expect(opening).toThrow(/^cannot open the index's store \/\S+\/a-file\/index\.sqlite \((EEXIST|ENOTDIR)\)$/);
  });

  it("reset forgets every chunk and file and names the collection it will be rebuilt from", () => {
    const store = filled();
    store.reset("collection-2");
    expect(store.counts()).toEqual({ files: 0, chunks: 0 });
    expect(store.query(lexicalTerms("falsey"), 3)).toEqual([]);
    expect(store.collectionId()).toBe("collection-2");
  });

  it("records a touched file's new size and mtime only while its hash is the same", () => {
    const store = filled();
    store.touchFile("src/compact.ts", { hash: "h1", size: 101, mtimeMs: 5 });
    expect(store.file("src/compact.ts")).toEqual({ hash: "h1", size: 101, mtimeMs: 5 });
    store.touchFile("src/compact.ts", { hash: "other", size: 1, mtimeMs: 9 });
    expect(store.file("src/compact.ts")).toEqual({ hash: "h1", size: 101, mtimeMs: 5 });
  });
});
