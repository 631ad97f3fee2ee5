import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import type { Collection } from "chromadb";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromaClient, VectorWriter } from "../../../src/memory/collection.js";
import { createLocalHashEmbedder } from "../../../src/memory/embeddings/index.js";
import type { Embedder } from "../../../src/memory/embeddings/types.js";
import { codeCollectionName, indexCounts, openCodeCollection, readCodeCollection } from "../../../src/memory/retrieval/code-collection.js";
import { CODE_INDEX_LOCAL_DIMENSION } from "../../../src/memory/retrieval/code-embedder.js";
import { CodeIndex } from "../../../src/memory/retrieval/code-index.js";
import { indexStoreFile } from "../../../src/memory/retrieval/index-store.js";
import { openCodeIndex, type OpenedIndex } from "../../../src/memory/retrieval/open-index.js";
import { startTestChroma, testChromaEndpoint, type TestChroma } from "../../helpers/chroma.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

let chroma: TestChroma;
let ws: TempWorkspace | undefined;
let opened: OpenedIndex | undefined;
let now = 1_000;
const clock = { now: () => now };

beforeAll(async () => {
  chroma = await startTestChroma();
});
afterAll(async () => {
  await chroma.stop();
});
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  await ws?.cleanup();
});

// The index's store goes to the data dir: the test Chroma's, never a home folder.
const env = (): NodeJS.ProcessEnv => ({ CHROMA_URL: chroma.url, HOME: "/nonexistent-home", MINI_CURSOR_DATA_DIR: chroma.dataDir });

const FILES = {
  "src/timing.ts": `/**\n * Waits until the user stops typing before running the callback: each new call resets the timer.\n */\nexport function debounce(fn: () => void, wait: number) {\n  let timer: NodeJS.Timeout | undefined;\n  return () => {\n    clearTimeout(timer);\n    timer = setTimeout(fn, wait);\n  };\n}\n`,
  "src/parse.ts": `/** Reads a semantic version string into its major, minor and patch numbers. */\nexport function parseVersion(text: string) {\n  const [major, minor, patch] = text.split(".").map(Number);\n  return { major, minor, patch };\n}\n`,
  "src/colors.ts": `/** Mixes two RGB colors in the given proportion. */\nexport function blend(a: number[], b: number[], t: number) {\n  return a.map((v, i) => v * (1 - t) + (b[i] ?? 0) * t);\n}\n`,
  "docs/guide.md": "# Guide\n\nThe release process bumps the version and tags the commit.\n",
  ".gitignore": "generated/\n",
  "generated/api.ts": "/** Waits until typing stops. */\nexport function debounceGenerated() {}\n",
  "public/app.min.js": `${"function a(b){return b};".repeat(300)}`,
};

/** The index of FILES built by one session, and a second session open on the same workspace for `check`, closed after it. */
async function withSecondSession(check: (second: OpenedIndex, first: OpenedIndex, root: string) => Promise<void>): Promise<void> {
  ws = await makeTempWorkspace(FILES);
  const first = await openCodeIndex({ root: ws.root, env: env(), clock });
  opened = first;
  await first.index.update();
  const second = await openCodeIndex({ root: ws.root, env: env(), clock });
  try {
    await check(second, first, ws.root);
  } finally {
    await second.close();
  }
}

describe("the codebase index against a real Chroma server", () => {
  it("builds, finds code by plain words and by identifier, and skips ignored and minified files", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    const progress: string[] = [];
    const built = await opened.index.update({ onProgress: (p) => progress.push(p.phase) });
    expect(built).toMatchObject({ files: 4, changed: 4, removed: 0, partial: false });
    expect(progress.at(-1)).toBe("done");

    const plain = await opened.index.search({ query: "postpone the callback until the user stops typing" });
    expect(plain[0]).toMatchObject({ path: "src/timing.ts", symbol: "debounce", startLine: 1, endLine: 10 });
    const byName = await opened.index.search({ query: "parseVersion" });
    expect(byName[0]?.path).toBe("src/parse.ts");
    const all = await opened.index.search({ query: "debounce typing waits", limit: 20 });
    expect(all.map((h) => h.path)).not.toContain("generated/api.ts");
    expect(all.map((h) => h.path)).not.toContain("public/app.min.js");
    const filtered = await opened.index.search({ query: "version", path: "docs" });
    expect(filtered.map((h) => h.path)).toEqual(["docs/guide.md"]);
  });

  it("re-embeds only changed files, so an edit changes the ranking, and forgets deleted files", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    await opened.index.update();
    const before = await opened.index.search({ query: "interpolate between two colours of a gradient" });
    expect(before[0]?.path).toBe("src/colors.ts");

    await writeFile(
      path.join(ws.root, "src/parse.ts"),
      `/** Interpolates between two colours of a gradient, stop by stop. */\nexport function gradientStops(colours: string[]) {\n  return colours;\n}\n`,
    );
    await rm(path.join(ws.root, "src/timing.ts"));
    const updated = await opened.index.update();
    expect(updated).toMatchObject({ changed: 1, removed: 1, files: 3 });
    const after = await opened.index.search({ query: "interpolate between two colours of a gradient" });
    expect(after[0]?.path).toBe("src/parse.ts");
    const gone = await opened.index.search({ query: "debounce typing", limit: 20 });
    expect(gone.map((h) => h.path)).not.toContain("src/timing.ts");

    // A second process sees the same index: the manifest is Chroma's metadata, so nothing is re-embedded.
    const again = await openCodeIndex({ root: ws.root, env: env(), clock });
    try {
      expect(await again.index.update()).toMatchObject({ changed: 0, removed: 0, files: 3 });
      expect((await again.index.search({ query: "gradientStops" }))[0]?.path).toBe("src/parse.ts");
    } finally {
      await again.close();
    }
  });

  it("in a git repository, an update asks git what changed instead of walking the tree; ignore rules changing walk again", async () => {
    ws = await makeTempWorkspace(FILES);
    const git = (...args: string[]) => {
      const ran = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: ws?.root, encoding: "utf8" });
      if (ran.status !== 0) throw new Error(`git ${args.join(" ")}: ${ran.stderr}`);
    };
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "one");
    opened = await openCodeIndex({ root: ws.root, env: { ...env(), PATH: process.env.PATH ?? "" }, clock });
    expect(await opened.index.update()).toMatchObject({ scan: "walk", files: 4 });
    // Nothing changed: git says so; nothing is read.
    expect(await opened.index.update()).toMatchObject({ scan: "git", changed: 0, removed: 0, files: 4 });
    await writeFile(path.join(ws.root, "src/parse.ts"), "/** Sorts the release notes by date. */\nexport function sortNotes() {}\n");
    await writeFile(path.join(ws.root, "src/new.ts"), "/** Counts the words of a note. */\nexport function countWords() {}\n");
    await writeFile(path.join(ws.root, "generated/other.ts"), "/** Ignored. */\nexport const ignored = 1;\n");
    await rm(path.join(ws.root, "src/timing.ts"));
    expect(await opened.index.update()).toMatchObject({ scan: "git", changed: 2, removed: 1, files: 4 });
    expect((await opened.index.search({ query: "countWords" }))[0]?.path).toBe("src/new.ts");
    expect((await opened.index.search({ query: "sortNotes" }))[0]?.path).toBe("src/parse.ts");
    // Committed: the files are no longer dirty, and nothing is re-read.
    git("add", "-A");
    git("commit", "-qm", "two");
    expect(await opened.index.update()).toMatchObject({ scan: "git", changed: 0, removed: 0, files: 4 });
    // A known file that git names and the walk's rules now skip (binary) leaves the index; the others stay.
    await writeFile(path.join(ws.root, "src/new.ts"), "binary\0content\n");
    expect(await opened.index.update()).toMatchObject({ scan: "git", changed: 0, removed: 1, files: 3 });
    expect((await opened.index.search({ query: "countWords" })).map((h) => h.path)).not.toContain("src/new.ts");
    await writeFile(path.join(ws.root, "src/new.ts"), "/** Counts the words of a note. */\nexport function countWords() {}\n");
    // New ignore rules change what is indexed anywhere: the tree is walked again, and the generated file comes in
    // (with the .gitignore itself and src/new.ts, text again).
    await writeFile(path.join(ws.root, ".gitignore"), "nothing-ignored/\n");
    expect(await opened.index.update()).toMatchObject({ scan: "walk", changed: 3, files: 6 });
  });

  it("answers callers that ask at the same time from one consistent load of the index", async () => {
    await withSecondSession(async (again, first, root) => {
      // Counted from the ids (what index status and doctor report), before anything is loaded.
      const collection = await readCodeCollection(chromaClient(testChromaEndpoint(chroma)), root);
      expect(collection && (await indexCounts(collection))).toEqual(first.index.stats());
      // The store on disk is shared: a second session sees the first one's index before it checks anything.
      expect(again.index.stats()).toEqual(first.index.stats());
      const [a, b] = await Promise.all([again.index.search({ query: "parseVersion" }), again.index.search({ query: "blend" }), again.index.load()]);
      expect([a[0]?.path, b[0]?.path]).toEqual(["src/parse.ts", "src/colors.ts"]);
      expect(again.index.stats()).toEqual({ files: 4, chunks: first.index.stats().chunks });
      // Each file's chunks counted once: deleting one file removes exactly its chunks.
      const before = again.index.stats().chunks;
      await rm(path.join(root, "src/colors.ts"));
      expect(await again.index.update()).toMatchObject({ removed: 1, files: 3 });
      expect(again.index.stats().chunks).toBe(before - 1);
    });
  });

  it("stops embedding when its time box runs out and continues on the next update", async () => {
    ws = await makeTempWorkspace(
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`src/m${i}.ts`, `/** Module ${i}. */\nexport const m${i} = () => ${i};\n`])),
    );
    opened = await openCodeIndex({ root: ws.root, env: env(), clock: { now: () => (now += 1) } });
    const first = await opened.index.update({ timeBudgetMs: 0 });
    expect(first.partial).toBe(true);
    expect(first.changed).toBeLessThan(30);
    const second = await opened.index.update();
    expect(second).toMatchObject({ partial: false, files: 30 });
  });

  it("indexes at its own dimension, and rebuilds an index that an embedder of another dimension built", async () => {
    ws = await makeTempWorkspace(FILES);
    const client = chromaClient(testChromaEndpoint(chroma));
    // What an earlier version left: the workspace indexed with memory's 2048-dimension vectors.
    const wide = createLocalHashEmbedder({ dimension: 2048 });
    const old = await openCodeCollection(client, ws.root, wide);
    await old.add({ ids: ["old"], documents: ["stale"], embeddings: await wide.embedDocuments(["stale"]), metadatas: [{ path: "gone.ts" }] });

    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    const rebuilt = await client.getCollection({ name: codeCollectionName(ws.root), embeddingFunction: undefined });
    expect(rebuilt.metadata).toMatchObject({ embedder: "local-hash-v1", dimension: CODE_INDEX_LOCAL_DIMENSION });
    expect(await rebuilt.count()).toBe(0);
    expect(await opened.index.update()).toMatchObject({ files: 4, changed: 4 });
    const row = await rebuilt.get({ limit: 1, include: ["embeddings"] });
    expect(row.embeddings[0]).toHaveLength(CODE_INDEX_LOCAL_DIMENSION);
    expect((await opened.index.search({ query: "parseVersion" }))[0]?.path).toBe("src/parse.ts");
  });
});

describe("repeated questions", () => {
  it("are answered from the last answer until the index changes, then asked again", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    // The same collection and embedder as the index opened, with the embedder's query calls counted.
    const real = createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION });
    let queries = 0;
    const embedder: Embedder = {
      id: real.id,
      dimension: () => real.dimension(),
      embedDocuments: (t) => real.embedDocuments(t),
      embedQuery: (t) => ((queries += 1), real.embedQuery(t)),
    };
    const client = chromaClient(opened.endpoint);
    const collection = await openCodeCollection(client, ws.root, embedder);
    const index = new CodeIndex({ root: ws.root, collection, writer: new VectorWriter(client, opened.endpoint), embedder, clock, allowCredentialFiles: false });
    await index.update();

    const question = { query: "interpolate between two colours of a gradient" };
    const first = await index.search(question);
    expect(first[0]?.path).toBe("src/colors.ts");
    const second = await index.search(question);
    expect(second).toEqual(first);
    expect(queries).toBe(1);
    second[0]!.path = "changed by a caller";
    expect((await index.search(question))[0]?.path).toBe("src/colors.ts");
    expect(queries).toBe(1);
    await index.search({ ...question, limit: 3 });
    expect(queries).toBe(2);

    await writeFile(
      path.join(ws.root, "src/parse.ts"),
      `/** Interpolates between two colours of a gradient, stop by stop. */\nexport function gradientStops(colours: string[]) {\n  return colours;\n}\n`,
    );
    await index.update();
    expect((await index.search(question))[0]?.path).toBe("src/parse.ts");
    expect(queries).toBe(3);
  });
});

describe("what the index stores", () => {
  it("keeps chunk text as metadata, not as Chroma documents (no full-text indexing), and still reads indexes that did", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    await opened.index.update();
    const collection = await openCodeCollection(chromaClient(opened.endpoint), ws.root, createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION }));
    const rows = await collection.get({ include: ["documents", "metadatas"] });
    expect(rows.ids.length).toBeGreaterThan(0);
    expect(rows.documents.every((d) => d === null)).toBe(true);
    expect(rows.metadatas.every((m) => typeof m?.text === "string" && m.text.length > 0)).toBe(true);

    // A chunk written the earlier way: its text as the document, none in its metadata.
    const embedder = createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION });
    const legacy = "/** Formats a duration in milliseconds as minutes and seconds. */\nexport function formatDuration(ms: number) {}";
    const meta = rows.metadatas[0] ?? {};
    await collection.upsert({
      ids: ["legacy-0"],
      embeddings: await embedder.embedDocuments([legacy]),
      documents: [legacy],
      metadatas: [{ ...meta, text: null, path: "src/duration.ts", startLine: 1, endLine: 2, symbol: "formatDuration", kind: "function" }],
    });
    const again = await openCodeIndex({ root: ws.root, env: env(), clock });
    try {
      const hits = await again.index.search({ query: "formatDuration", limit: 3 });
      expect(hits[0]).toMatchObject({ path: "src/duration.ts", symbol: "formatDuration" });
      expect(hits[0]?.snippet).toContain("Formats a duration");
    } finally {
      await again.close();
    }
  });
});

describe("the index's store on disk (SQLite, derived from the collection)", () => {
  /** The workspace's collection with its reads of every chunk (get without ids) counted. */
  async function counted(root: string): Promise<{ collection: Collection; reads: () => number }> {
    const client = chromaClient(testChromaEndpoint(chroma));
    const real = await openCodeCollection(client, root, createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION }));
    let reads = 0;
    const collection = new Proxy(real, {
      get(target, key, receiver) {
        if (key === "get") return (args: Parameters<Collection["get"]>[0]) => ((reads += args?.ids === undefined ? 1 : 0), target.get(args));
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { collection, reads: () => reads };
  }

  function indexOn(root: string, collection: Collection, storeFile: string): CodeIndex {
    const embedder = createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION });
    return new CodeIndex({
      root,
      collection,
      writer: new VectorWriter(chromaClient(testChromaEndpoint(chroma)), testChromaEndpoint(chroma)),
      embedder,
      clock,
      allowCredentialFiles: false,
      storeFile,
    });
  }

  it("lets a new session search without reading the chunks back from Chroma; a missing store is rebuilt from Chroma", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    await opened.index.update();
    const built = opened.index.stats();
    const storeFile = indexStoreFile(chroma.dataDir, ws.root);
    expect(fs.existsSync(storeFile)).toBe(true);

    const inStep = await counted(ws.root);
    const next = indexOn(ws.root, inStep.collection, storeFile);
    try {
      expect((await next.search({ query: "postpone the callback until the user stops typing" }))[0]?.path).toBe("src/timing.ts");
      expect(await next.update()).toMatchObject({ changed: 0, removed: 0, files: 4 });
      expect(inStep.reads()).toBe(0);
    } finally {
      await next.close();
    }

    await opened.close();
    opened = undefined;
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${storeFile}${suffix}`, { force: true });
    const missing = await counted(ws.root);
    const rebuilt = indexOn(ws.root, missing.collection, storeFile);
    try {
      expect((await rebuilt.search({ query: "parseVersion" }))[0]?.path).toBe("src/parse.ts");
      expect(missing.reads()).toBeGreaterThan(0);
      expect(rebuilt.stats()).toEqual(built);
      // Rebuilt with the files' fingerprints: nothing is embedded again.
      expect(await rebuilt.update()).toMatchObject({ changed: 0, removed: 0, files: 4 });
    } finally {
      await rebuilt.close();
    }
  });

  it("rebuilds a store that holds other chunks than Chroma (a crash between the two writes) and then agrees with it", async () => {
    ws = await makeTempWorkspace(FILES);
    opened = await openCodeIndex({ root: ws.root, env: env(), clock });
    await opened.index.update();
    await opened.close();
    opened = undefined;
    // What a crash after Chroma's write and before the store's leaves: a file's chunks in Chroma only.
    const { collection, reads } = await counted(ws.root);
    const embedder = createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION });
    const text = "/** Formats a duration in milliseconds as minutes and seconds. */\nexport function formatDuration(ms: number) {}";
    await collection.upsert({
      ids: ["src/duration.ts#crash-0"],
      embeddings: await embedder.embedDocuments([text]),
      metadatas: [{ text, path: "src/duration.ts", startLine: 1, endLine: 2, symbol: "formatDuration", kind: "function", fileHash: "h", size: 1, mtimeMs: 1 }],
    });
    const index = indexOn(ws.root, collection, indexStoreFile(chroma.dataDir, ws.root));
    try {
      expect((await index.search({ query: "formatDuration" }))[0]?.path).toBe("src/duration.ts");
      expect(reads()).toBeGreaterThan(0);
      expect(index.stats()).toEqual(await indexCounts(collection));
      // The file is not in the workspace: the next update takes it out of both.
      expect(await index.update()).toMatchObject({ removed: 1, files: 4 });
      expect(index.stats()).toEqual(await indexCounts(collection));
    } finally {
      await index.close();
    }
  });

  it("shows one session's update to another that shares the workspace, without an update of its own", async () => {
    await withSecondSession(async (other, first, root) => {
      const question = { query: "interpolate between two colours of a gradient" };
      expect((await other.index.search(question))[0]?.path).toBe("src/colors.ts");
      await writeFile(
        path.join(root, "src/parse.ts"),
        `/** Interpolates between two colours of a gradient, stop by stop. */\nexport function gradientStops(colours: string[]) {\n  return colours;\n}\n`,
      );
      await rm(path.join(root, "src/colors.ts"));
      await first.index.update();
      const hits = await other.index.search(question);
      expect(hits[0]?.path).toBe("src/parse.ts");
      expect(hits.map((h) => h.path)).not.toContain("src/colors.ts");
    });
  });
});
