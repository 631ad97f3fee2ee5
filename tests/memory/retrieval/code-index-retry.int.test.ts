import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveMemoryStoreConfig } from "../../../src/platform/config/memory-settings.js";
import { chromaClient, VectorWriter } from "../../../src/memory/collection.js";
import { createOpenAICompatibleEmbedder } from "../../../src/memory/embeddings/openai-compatible.js";
import { systemClock } from "../../../src/platform/clock.js";
import { openCodeCollection } from "../../../src/memory/retrieval/code-collection.js";
import { CodeIndex } from "../../../src/memory/retrieval/code-index.js";
import { SessionCodeIndex, type CodebaseAnswer } from "../../../src/memory/retrieval/session-index.js";
import { createCodebaseSearchTool } from "../../../src/tools/codebase-search.js";
import type { BuildProgress } from "../../../src/memory/retrieval/types.js";
import { testChromaEndpoint } from "../../helpers/chroma.js";
import type { EmbeddingsServer } from "../embeddings/embeddings-server.js";
import { oneChunkModules, rateLimited, useRemoteEmbedderFixture } from "./remote-embedder-fixture.js";

/**
 * The codebase index built through a remote embedder that turns batches away for now, as a hosted API does when a
 * build of a large repository runs into its per-minute limits: real Chroma, a real embeddings server on 127.0.0.1.
 */
const fixture = useRemoteEmbedderFixture();
const MODULES = oneChunkModules(200, "ts");
const startServer = fixture.embeddings;

/** A session's index of `root` through the embeddings server, as a session with that server configured opens it. */
function remoteSession(root: string, server: EmbeddingsServer): SessionCodeIndex {
  const env = {
    CHROMA_URL: fixture.chroma().url,
    HOME: "/nonexistent-home",
    MINI_CURSOR_DATA_DIR: fixture.chroma().dataDir,
    MINI_CURSOR_EMBEDDINGS: "openai",
    MINI_CURSOR_EMBEDDING_MODEL: "remote-embedder",
    MINI_CURSOR_EMBEDDING_BASE_URL: server.baseUrl,
    MINI_CURSOR_EMBEDDING_API_KEY: "k",
  };
  return new SessionCodeIndex({ root, env, clock: systemClock, settings: resolveMemoryStoreConfig(env) });
}

/** The session's answer once its first update is over (until then it says "building", or answers partially). */
async function answerWhenReady(session: SessionCodeIndex, query: string): Promise<CodebaseAnswer> {
  const building = (a: CodebaseAnswer) => a.state === "building" || (a.state === "ready" && a.partial !== undefined);
  let answer = await session.search({ query });
  for (let i = 0; i < 100 && building(answer); i++) {
    await new Promise((r) => setTimeout(r, 100));
    answer = await session.search({ query });
  }
  return answer;
}

async function indexOf(root: string, server: EmbeddingsServer): Promise<CodeIndex> {
  const embedder = createOpenAICompatibleEmbedder({ baseUrl: server.baseUrl, apiKey: "k", model: "remote-embedder" });
  const client = chromaClient(testChromaEndpoint(fixture.chroma()));
  const collection = await openCodeCollection(client, root, embedder);
  return new CodeIndex({
    root,
    collection,
    writer: new VectorWriter(client, testChromaEndpoint(fixture.chroma())),
    embedder,
    clock: systemClock,
    allowCredentialFiles: false,
    retry: { attempts: 4, firstDelayMs: 20, maxDelayMs: 5_000 },
  });
}

describe("a build through a rate-limited embeddings server", () => {
  it("waits out the rate limit, says so in its progress, and finishes the whole index", async () => {
    const ws = await fixture.workspace(MODULES);
    const { server, embedded } = await startServer((n) => (n === 2 || n === 3 ? rateLimited(50) : undefined));
    const index = await indexOf(ws.root, server);
    const progress: BuildProgress[] = [];
    const built = await index.update({ timeBudgetMs: 60_000, onProgress: (p) => progress.push(p) });
    expect(built).toMatchObject({ files: 200, changed: 200, partial: false });
    expect(built.stopped).toBeUndefined();
    const waits = progress.filter((p) => p.phase === "wait");
    expect(waits.map((p) => p.wait?.waitMs)).toEqual([50, 50]);
    expect(waits[0]?.wait?.reason).toContain("HTTP 429: Rate limit reached for tokens");
    // Each chunk embedded once: the batches turned away were sent again whole, nothing twice.
    expect(embedded()).toBe(index.stats().chunks);
    // The test server's vectors come from a text's first characters, which for a chunk are its path.
    expect((await index.search({ query: "src/m137.ts" }))[0]?.path).toBe("src/m137.ts");
  });

  it("stops early when the server asks for a longer wait than it makes, keeps what it embedded, and the next update continues", async () => {
    const ws = await fixture.workspace(MODULES);
    let quota = true;
    // Request 1 probes the vector length; 2 and 3 embed the first batch (64 + 32 texts); from 4 on, a daily quota.
    const { server, embedded } = await startServer((n) => (quota && n >= 4 ? { ...rateLimited(0), headers: { "retry-after": "7200" } } : undefined));
    const index = await indexOf(ws.root, server);
    const first = await index.update();
    expect(first.partial).toBe(true);
    expect(first.stopped).toMatchObject({ reason: "rate-limit", retryAfterMs: 7_200_000 });
    expect(first.changed).toBeGreaterThan(0);
    expect(first.changed).toBeLessThan(200);
    const kept = index.stats().chunks;
    expect(kept).toBe(embedded());

    quota = false;
    const second = await index.update();
    expect(second).toMatchObject({ partial: false, changed: 200 - first.changed, files: 200 });
    expect(embedded()).toBe(index.stats().chunks);
  });

  it("ranks by words when the question cannot be embedded, says so, and asks the embedder again next time", async () => {
    const ws = await fixture.workspace(MODULES);
    let refuseQuestions = false;
    const { server } = await startServer((_n, inputs) => (refuseQuestions && inputs.length === 1 ? rateLimited(20_000) : undefined));
    const index = await indexOf(ws.root, server);
    await index.update();
    refuseQuestions = true;
    const byWords = await index.answer({ query: "m137" });
    expect(byWords.wordsOnly).toContain("HTTP 429: Rate limit reached for tokens");
    expect(byWords.hits[0]?.path).toBe("src/m137.ts");
    // Only the hybrid ranking falls back: vector-only has nothing to fall back on.
    await expect(index.search({ query: "m137" }, "vector")).rejects.toThrow(/HTTP 429/);

    refuseQuestions = false;
    const requests = server.requests.length;
    const again = await index.answer({ query: "m137" });
    expect(again.wordsOnly).toBeUndefined();
    expect(server.requests.length).toBe(requests + 1);
  });

  it("throws a failure that is not transient; a session then searches the index it already had", async () => {
    const ws = await fixture.workspace(MODULES);
    let failQuestions = false;
    const { server } = await startServer((_n, inputs) =>
      inputs.some((t) => t.includes("BROKEN"))
        ? { status: 400, json: { error: { message: "input rejected" } } }
        : failQuestions && inputs.length === 1
          ? { status: 503, json: { error: "overloaded" } }
          : undefined,
    );
    const index = await indexOf(ws.root, server);
    expect(await index.update()).toMatchObject({ changed: 200 });
    await writeFile(path.join(ws.root, "src/m5.ts"), "/** BROKEN on purpose. */\nexport const m5 = () => 5;\n");
    await expect(index.update()).rejects.toThrow(/HTTP 400: input rejected/);

    const session = remoteSession(ws.root, server);
    try {
      session.begin();
      const answer = await answerWhenReady(session, "src/m137.ts");
      expect(answer.state).toBe("ready");
      expect(answer.state === "ready" && answer.hits[0]?.path).toBe("src/m137.ts");
      // Through the tool the researcher and the coder call.
      const tool = createCodebaseSearchTool({ root: ws.root, codeIndex: session });
      expect(String(await tool.invoke({ query: "src/m137.ts", limit: 3 }))).toMatch(/^3 results, best first \(read_file .*\n1\. src\/m137\.ts:1-2 m137/);
      failQuestions = true;
      const byWords = String(await tool.invoke({ query: "m137", limit: 3 }));
      expect(byWords).toMatch(
        /^1 result, best first \(ranked by words only: the embeddings server could not embed the question just now; .*\n1\. src\/m137\.ts:1-2 m137/,
      );
      expect(byWords).not.toContain(server.baseUrl);
    } finally {
      await session.close();
    }
  });

  it("opens an index it already has without asking the embeddings server, so one over its limit leaves words-only search", async () => {
    const ws = await fixture.workspace(MODULES);
    let overLimit = false;
    const { server } = await startServer(() => (overLimit ? { ...rateLimited(0), headers: { "retry-after": "7200" } } : undefined));
    const index = await indexOf(ws.root, server);
    expect(await index.update()).toMatchObject({ changed: 200 });
    await index.close();
    overLimit = true;

    const session = remoteSession(ws.root, server);
    try {
      session.begin();
      const answer = await answerWhenReady(session, "m137");
      // Nothing changed, so the update embedded nothing; the question could not be embedded: words ranked it.
      expect(answer).toMatchObject({ state: "ready", wordsOnly: true });
      expect(answer.state === "ready" && answer.hits[0]?.path).toBe("src/m137.ts");
    } finally {
      await session.close();
    }
  });

  it("answers from the part indexed so far while the first build waits, marked partial, through the tool too", async () => {
    const ws = await fixture.workspace(MODULES);
    // The probe and the first batch go through; then every request is turned away for a long while (questions too).
    const { server } = await startServer((n) => (n >= 4 ? rateLimited(30_000) : undefined));
    const session = remoteSession(ws.root, server);
    try {
      session.begin();
      let answer = await session.search({ query: "m10" });
      for (let i = 0; i < 100 && answer.state === "building"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        answer = await session.search({ query: "m10" });
      }
      expect(answer).toMatchObject({ state: "ready", wordsOnly: true, partial: expect.stringMatching(/^indexed \d+\/200 files so far/) as string });
      expect(answer.state === "ready" && answer.hits[0]?.path).toBe("src/m10.ts");
      const tool = createCodebaseSearchTool({ root: ws.root, codeIndex: session });
      expect(String(await tool.invoke({ query: "m10", limit: 1 }))).toMatch(
        /^The index is still being built \(indexed \d+\/200 files so far.*\): these come from the part indexed so far; search_code covers every file\.\n1 result/,
      );
    } finally {
      await session.close();
    }
  });
});
