import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChromaMemory } from "../../src/memory/chroma-memory.js";
import { chromaClient, EmbedderMismatchError, openCollection, reindexCollection, VectorWriter } from "../../src/memory/collection.js";
import type { ChromaEndpoint } from "../../src/memory/chroma/types.js";
import { createLocalHashEmbedder } from "../../src/memory/embeddings/local-hash.js";
import { startTestChroma, testChromaEndpoint, type TestChroma } from "../helpers/chroma.js";

let chroma: TestChroma;
let counter = 0;
let now = 1_000;
const clock = { now: () => now };

function endpoint(): ChromaEndpoint {
  return testChromaEndpoint(chroma);
}

async function freshMemory(dimension = 512): Promise<ChromaMemory> {
  const embedder = createLocalHashEmbedder({ dimension });
  const client = chromaClient(endpoint());
  const collection = await openCollection(client, `memory-test-${++counter}`, embedder);
  return new ChromaMemory({ collection, writer: new VectorWriter(client, endpoint()), embedder, clock });
}

beforeAll(async () => {
  chroma = await startTestChroma();
});
afterAll(async () => {
  await chroma.stop();
});

describe("ChromaMemory against a real Chroma server", () => {
  it("finds relevant memories, this workspace first, then other workspaces", async () => {
    const memory = await freshMemory();
    await memory.add(
      [
        { kind: "lesson", text: "vitest needs --run in CI or it waits for file changes", source: "" },
        { kind: "finding", text: "the API routes live in src/server/routes.ts", source: "src/server/routes.ts:1" },
      ],
      { workspace: "/a", session: "s1" },
    );
    await memory.add([{ kind: "lesson", text: "vitest in CI must be started with vitest run", source: "" }], { workspace: "/b", session: "s2" });

    const hits = await memory.search({ query: "how do I run vitest in CI", workspace: "/a", limit: 3, scope: "all" });
    expect(hits.map((h) => [h.workspace, h.sameWorkspace])).toEqual([
      ["/a", true],
      ["/a", true],
      ["/b", false],
    ]);
    expect(hits[0]?.text).toContain("vitest needs --run");
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1);

    const onlyHere = await memory.search({ query: "vitest", workspace: "/a", limit: 5, scope: "workspace" });
    expect(onlyHere.every((h) => h.workspace === "/a")).toBe(true);
    const lessons = await memory.search({ query: "routes", workspace: "/a", limit: 5, kinds: ["finding"] });
    expect(lessons.map((h) => h.kind)).toEqual(["finding"]);
    expect(lessons[0]?.source).toBe("src/server/routes.ts:1");

    const recalled = await memory.recall({ task: "make vitest work in CI", workspace: "/a", limit: 2 });
    expect(recalled[0]).toMatch(/^\[lesson, this workspace, 1970-01-01\] vitest needs --run/);
  });

  it("fills from other workspaces with their best matches, after every match of this workspace however weak", async () => {
    const memory = await freshMemory();
    await memory.add([{ kind: "note", text: "the docs site is built with docusaurus", source: "" }], { workspace: "/a", session: "s1" });
    await memory.add([{ kind: "lesson", text: "postgres migrations run before the tests start", source: "" }], { workspace: "/a", session: "s1" });
    await memory.add(
      [
        { kind: "lesson", text: "vitest watch mode hangs CI unless vitest run is used", source: "" },
        { kind: "note", text: "vitest coverage needs the v8 provider", source: "" },
        { kind: "lesson", text: "the release script tags the commit", source: "" },
      ],
      { workspace: "/b", session: "s2" },
    );
    await memory.add([{ kind: "lesson", text: "vitest in CI: always vitest run", source: "" }], { workspace: "/c", session: "s3" });

    const hits = await memory.search({ query: "vitest run in CI", workspace: "/a", limit: 4, scope: "all" });
    // Both of /a's memories come first although every vitest memory elsewhere is closer to the query.
    expect(hits.slice(0, 2).map((h) => h.workspace)).toEqual(["/a", "/a"]);
    const others = hits.slice(2);
    expect(others.map((h) => h.sameWorkspace)).toEqual([false, false]);
    expect(others.every((h) => h.text.includes("vitest"))).toBe(true);
    expect(others[0]?.score).toBeGreaterThanOrEqual(others[1]?.score ?? 1);
    expect(Math.min(...others.map((h) => h.score))).toBeGreaterThan(Math.max(...hits.slice(0, 2).map((h) => h.score)));

    // The kind filter applies to both parts; the others never repeat a memory of this workspace.
    const lessons = await memory.search({ query: "vitest run in CI", workspace: "/a", limit: 5, scope: "all", kinds: ["lesson"] });
    expect(lessons.map((h) => h.kind)).toEqual(["lesson", "lesson", "lesson", "lesson"]);
    expect(lessons.map((h) => h.workspace).sort()).toEqual(["/a", "/b", "/b", "/c"]);
    expect(lessons[0]?.workspace).toBe("/a");
    const scores = lessons.slice(1).map((h) => h.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(new Set(lessons.map((h) => h.id)).size).toBe(lessons.length);
  });

  it("merges a near-duplicate into the existing memory instead of piling it up", async () => {
    const memory = await freshMemory();
    const [first] = await memory.add([{ kind: "lesson", text: "npm test failed because jest was not installed; npm install jest fixed it", source: "" }], {
      workspace: "/a",
      session: "s1",
    });
    now = 2_000;
    const [second] = await memory.add([{ kind: "lesson", text: "npm test failed because jest was not installed, npm install jest fixed it.", source: "" }], {
      workspace: "/a",
      session: "s2",
    });
    expect(second).toEqual({ id: first?.id, merged: true });
    const [other] = await memory.add([{ kind: "lesson", text: "the docker build needs the .dockerignore to skip node_modules", source: "" }], {
      workspace: "/a",
      session: "s2",
    });
    expect(other?.merged).toBe(false);
    // Same text in another workspace is its own memory.
    const [elsewhere] = await memory.add([{ kind: "lesson", text: "npm test failed because jest was not installed; npm install jest fixed it", source: "" }], {
      workspace: "/b",
      session: "s3",
    });
    expect(elsewhere?.merged).toBe(false);

    const listed = await memory.list({ workspace: "/a", limit: 10 });
    expect(listed).toHaveLength(2);
    const merged = listed.find((r) => r.id === first?.id);
    expect(merged).toMatchObject({ mergedCount: 1, session: "s2", createdAt: 1_000, updatedAt: 2_000 });
    const stats = await memory.stats();
    expect(stats).toMatchObject({ count: 3, byKind: { lesson: 3 }, byWorkspace: { "/a": 2, "/b": 1 }, embedder: "local-hash-v1", dimension: 512 });

    expect(await memory.forget(first?.id ?? "")).toBe(true);
    expect(await memory.forget(first?.id ?? "")).toBe(false);
    expect((await memory.list({ workspace: "/a", limit: 10 })).map((r) => r.id)).toEqual([other?.id]);
  });

  it("decides a batch as if its memories were added one by one: merging into stored ones and into earlier ones of the batch", async () => {
    const memory = await freshMemory();
    now = 1_000;
    const [stored] = await memory.add([{ kind: "lesson", text: "npm test failed because jest was not installed; npm install jest fixed it", source: "" }], {
      workspace: "/a",
      session: "s1",
    });
    now = 2_000;
    const results = await memory.add(
      [
        { kind: "decision", text: "the CLI parses flags with node:util parseArgs instead of a library", source: "" },
        { kind: "lesson", text: "npm test failed because jest was not installed, npm install jest fixed it.", source: "src/a.test.ts" },
        { kind: "decision", text: "the CLI parses flags with node:util parseArgs instead of a library.", source: "" },
        { kind: "lesson", text: "the docker build needs the .dockerignore to skip node_modules", source: "" },
        // Same words as the decision but another kind: never merged across kinds.
        { kind: "note", text: "the CLI parses flags with node:util parseArgs instead of a library", source: "" },
      ],
      { workspace: "/a", session: "s2" },
    );
    expect(results.map((r) => r.merged)).toEqual([false, true, true, false, false]);
    expect(results[1]?.id).toBe(stored?.id);
    expect(results[2]?.id).toBe(results[0]?.id);
    const listed = await memory.list({ workspace: "/a", limit: 10 });
    expect(listed).toHaveLength(4);
    expect(listed.find((r) => r.id === stored?.id)).toMatchObject({
      mergedCount: 1,
      session: "s2",
      source: "src/a.test.ts",
      createdAt: 1_000,
      updatedAt: 2_000,
      text: "npm test failed because jest was not installed, npm install jest fixed it.",
    });
    expect(listed.find((r) => r.id === results[0]?.id)).toMatchObject({
      kind: "decision",
      mergedCount: 1,
      createdAt: 2_000,
      text: "the CLI parses flags with node:util parseArgs instead of a library.",
    });
    // A search finds the merged memory by its newest text's vector.
    const hits = await memory.search({ query: "parseArgs flags", workspace: "/a", limit: 1, scope: "workspace", kinds: ["decision"] });
    expect(hits[0]?.id).toBe(results[0]?.id);
  });

  it("finds a mergeable twin of the draft's own kind behind nearer memories of the batch's other kinds", async () => {
    const memory = await freshMemory();
    const text = "the release script needs node 20 and npm 10 before it publishes the package to the registry";
    const scope = { workspace: "/a", session: "s1" };
    // The same words under four other kinds (similarity 1.0), and the lesson a little apart (about 0.95).
    for (const kind of ["decision", "note", "finding", "command"] as const) await memory.add([{ kind, text, source: "" }], scope);
    const [lesson] = await memory.add([{ kind: "lesson", text: `${text} always`, source: "" }], scope);
    // One batch of five kinds: the lesson's nearest four are the other kinds' copies, all above the threshold.
    const results = await memory.add(
      [
        { kind: "lesson", text, source: "" },
        { kind: "decision", text: "the docs are written in markdown under docs/", source: "" },
        { kind: "note", text: "the staging server restarts every night", source: "" },
        { kind: "finding", text: "the parser lives in src/parse.ts", source: "" },
        { kind: "command", text: "make lint", source: "" },
      ],
      { workspace: "/a", session: "s2" },
    );
    expect(results[0]).toEqual({ id: lesson?.id, merged: true });
    expect(results.slice(1).map((r) => r.merged)).toEqual([false, false, false, false]);
    expect((await memory.list({ workspace: "/a", limit: 20 })).filter((r) => r.kind === "lesson")).toHaveLength(1);
  });

  it("refuses a collection built by another embedder, saying how to fix it, and reindexes it", async () => {
    const name = `memory-test-${++counter}`;
    const client = chromaClient(endpoint());
    const small = createLocalHashEmbedder({ dimension: 256 });
    const writer = new VectorWriter(client, endpoint());
    const built = new ChromaMemory({ collection: await openCollection(client, name, small), writer, embedder: small, clock });
    await built.add([{ kind: "note", text: "deploys go through the staging branch first", source: "user" }], { workspace: "/a", session: "user" });

    const big = createLocalHashEmbedder({ dimension: 512 });
    const error = await openCollection(client, name, big).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderMismatchError);
    expect(String(error)).toMatch(/built with embedder local-hash-v1 \(256 dimensions\).*current embedder is local-hash-v1 \(512 dimensions\)/);
    expect(String(error)).toMatch(/mini-cursor memory reindex|MINI_CURSOR_MEMORY_COLLECTION/);

    expect(await reindexCollection(client, writer, name, big, 42)).toBe(1);
    const reopened = new ChromaMemory({ collection: await openCollection(client, name, big), writer, embedder: big, clock });
    const hits = await reopened.search({ query: "staging branch deploys", workspace: "/a", limit: 1 });
    expect(hits[0]?.text).toBe("deploys go through the staging branch first");
  });

  it("keeps memories across a server restart", async () => {
    const memory = await freshMemory();
    const name = `memory-test-${counter}`;
    await memory.add([{ kind: "decision", text: "we store sessions in SQLite next to the workspace", source: "" }], { workspace: "/a", session: "s1" });
    await chroma.restart();
    const embedder = createLocalHashEmbedder({ dimension: 512 });
    const client = chromaClient(endpoint());
    const again = new ChromaMemory({ collection: await openCollection(client, name, embedder), writer: new VectorWriter(client, endpoint()), embedder, clock });
    const hits = await again.search({ query: "where are sessions stored", workspace: "/a", limit: 1 });
    expect(hits[0]?.text).toBe("we store sessions in SQLite next to the workspace");
  });
});
