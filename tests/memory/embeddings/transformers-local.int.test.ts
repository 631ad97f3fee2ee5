import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromaClient, VectorWriter } from "../../../src/memory/collection.js";
import { cosineSimilarity, createLocalHashEmbedder } from "../../../src/memory/embeddings/index.js";
import { createTransformersEmbedder } from "../../../src/memory/embeddings/transformers-local.js";
import { EmbedderError, type Embedder } from "../../../src/memory/embeddings/types.js";
import { openCodeCollection } from "../../../src/memory/retrieval/code-collection.js";
import { CODE_INDEX_LOCAL_DIMENSION } from "../../../src/memory/retrieval/code-embedder.js";
import { CodeIndex } from "../../../src/memory/retrieval/code-index.js";
import { startTestChroma, testChromaEndpoint, type TestChroma } from "../../helpers/chroma.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { TINY_DIMENSION, tinyModelFiles } from "../../helpers/tiny-onnx-model.js";

/**
 * The transformers.js embedder with the real library and ONNX Runtime, on a tiny model built at test time
 * (tests/helpers/tiny-onnx-model.ts), downloaded from a hub on 127.0.0.1 that serves the Hugging Face layout
 * `<model>/resolve/<revision>/<file>`.
 */

const MODEL = "mini-cursor-tests/tiny";
const SOURCE = fileURLToPath(new URL("../../../src/memory/embeddings/transformers-local.ts", import.meta.url));

interface Hub {
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A hub on 127.0.0.1 that has MODEL and nothing else. */
async function startHub(): Promise<Hub> {
  const files = tinyModelFiles();
  const requests: string[] = [];
  const prefix = `/${MODEL}/resolve/main/`;
  const server = http.createServer((req, res) => {
    const url = req.url ?? "";
    requests.push(url);
    const body = url.startsWith(prefix) ? files.get(decodeURIComponent(url.slice(prefix.length))) : undefined;
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Entry not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let hub: Hub;
let hubClosed = false;
let cacheDir: string;

beforeAll(async () => {
  hub = await startHub();
  cacheDir = await mkdtemp(path.join(os.tmpdir(), "mini-cursor-model-cache-"));
});
afterAll(async () => {
  if (!hubClosed) await hub.close();
  await rm(cacheDir, { recursive: true, force: true });
});

/** Runs the embedder in a new Node process (nothing of this one's transformers.js state), as a second session would. */
function embedInFreshProcess(options: { cacheDir: string; remoteHost: string }, text: string): { vector?: number[]; error?: string } {
  const script = `
    const { createTransformersEmbedder } = await import(${JSON.stringify(SOURCE)});
    const embedder = createTransformersEmbedder({ model: ${JSON.stringify(MODEL)}, ...${JSON.stringify(options)} });
    try {
      console.log(JSON.stringify({ vector: await embedder.embedQuery(${JSON.stringify(text)}) }));
    } catch (error) {
      console.log(JSON.stringify({ error: error.message }));
    }`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  const line = child.stdout.trim().split("\n").at(-1) ?? "";
  if (child.status !== 0 || !line.startsWith("{")) throw new Error(`the child process failed (${child.status}): ${child.stderr}`);
  return JSON.parse(line) as { vector?: number[]; error?: string };
}

describe("the transformers.js embedder with a real model", () => {
  let firstVector: number[] = [];

  it("downloads the model on first use from the hub into the cache folder", async () => {
    const embedder = createTransformersEmbedder({ model: MODEL, cacheDir, remoteHost: hub.url });
    expect(hub.requests).toEqual([]);
    firstVector = await embedder.embedQuery("login please");
    expect(firstVector).toHaveLength(TINY_DIMENSION);
    expect(embedder.knownDimension?.()).toBe(TINY_DIMENSION);
    expect(hub.requests).toContain(`/${MODEL}/resolve/main/onnx/model.onnx`);
    expect(hub.requests).toContain(`/${MODEL}/resolve/main/tokenizer.json`);
    for (const [file, contents] of tinyModelFiles()) {
      const cached = path.join(cacheDir, MODEL, file);
      expect(existsSync(cached), file).toBe(true);
      expect((await readFile(cached)).equals(contents), file).toBe(true);
    }
    // Loaded once: more texts ask the hub nothing.
    const asked = hub.requests.length;
    await embedder.embedDocuments(["session cookie", "draw button"]);
    expect(hub.requests).toHaveLength(asked);
  });

  it("gives real vectors: synonyms the model knows rank together", async () => {
    const embedder = createTransformersEmbedder({ model: MODEL, cacheDir, remoteHost: hub.url });
    const [login, authenticate, cookie, paint] = await embedder.embedDocuments(["login please", "authenticate user", "the session cookie", "paint a button"]);
    const query = await embedder.embedQuery("sign in");
    const norm = Math.hypot(...(login ?? []));
    expect(norm).toBeCloseTo(1, 5);
    expect(cosineSimilarity(login ?? [], authenticate ?? [])).toBeGreaterThan(0.99);
    expect(cosineSimilarity(query, authenticate ?? [])).toBeGreaterThan(0.99);
    expect(cosineSimilarity(query, cookie ?? [])).toBeLessThan(0.1);
    expect(cosineSimilarity(query, paint ?? [])).toBeLessThan(0.1);
  });

  it("names the model and the host when the hub does not have the model, in one line without a stack trace", async () => {
    const embedder = createTransformersEmbedder({ model: "mini-cursor-tests/absent", cacheDir, remoteHost: hub.url });
    const error = await embedder.embedQuery("x").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbedderError);
    const message = (error as EmbedderError).message;
    expect(message).toContain('model "mini-cursor-tests/absent"');
    expect(message).toContain(hub.url);
    expect(message).not.toContain("\n");
    expect(message).not.toMatch(/\bat .+:\d+:\d+/);
    expect((error as EmbedderError).transient).toBe(false);
  });

  // Last of the hub's tests: it stops the hub.
  it("a new process loads the model from the cache with the hub stopped", async () => {
    const asked = hub.requests.length;
    await hub.close();
    hubClosed = true;
    const fresh = embedInFreshProcess({ cacheDir, remoteHost: hub.url }, "login please");
    expect(fresh.error).toBeUndefined();
    expect(fresh.vector?.length).toBe(TINY_DIMENSION);
    fresh.vector?.forEach((x, i) => expect(x).toBeCloseTo(firstVector[i] ?? Number.NaN, 5));
    expect(hub.requests).toHaveLength(asked);
    // An empty cache with the hub down: one line naming the model and the host, worth retrying later.
    const emptyCache = await mkdtemp(path.join(os.tmpdir(), "mini-cursor-model-cache-empty-"));
    try {
      const offline = embedInFreshProcess({ cacheDir: emptyCache, remoteHost: hub.url }, "login please");
      expect(offline.error).toMatch(new RegExp(`^transformers embedder: cannot download model "${MODEL}" from ${hub.url}/ \\(cannot reach it`));
    } finally {
      await rm(emptyCache, { recursive: true, force: true });
    }
  });
});

describe("a codebase index built with the transformers.js embedder", () => {
  let chroma: TestChroma;
  const workspaces: TempWorkspace[] = [];
  const FILES = {
    "notes/access.md": "Login please.\n",
    // Shares most of its letters with "authenticate", which is all the hashing embedder sees.
    "notes/leather.md": "Authentic leather wallet.\n",
    "notes/ui.md": "Draw the button.\n",
    "notes/state.md": "Session cookie.\n",
  };

  beforeAll(async () => {
    chroma = await startTestChroma();
  });
  afterEach(async () => {
    for (const ws of workspaces.splice(0)) await ws.cleanup();
  });
  afterAll(async () => {
    await chroma.stop();
  });

  /** The files of the hybrid ranking (a session's), and the vector side's hits with their scores. */
  async function search(embedder: Embedder, query: string): Promise<{ files: string[]; vector: { path: string; score: number }[] }> {
    const ws = await makeTempWorkspace(FILES);
    workspaces.push(ws);
    const endpoint = testChromaEndpoint(chroma);
    const client = chromaClient(endpoint);
    const index = new CodeIndex({
      root: ws.root,
      collection: await openCodeCollection(client, ws.root, embedder),
      writer: new VectorWriter(client, endpoint),
      embedder,
      clock: { now: () => Date.now() },
      allowCredentialFiles: false,
    });
    expect(await index.update()).toMatchObject({ files: 4, partial: false });
    const files = (await index.search({ query, limit: 4 })).map((hit) => hit.path);
    const vector = (await index.search({ query, limit: 4 }, "vector")).map(({ path, score }) => ({ path, score }));
    return { files, vector };
  }

  it('finds the file that says "login" for "authenticate", which the hashing embedder does not', async () => {
    // The model is in the cache from the tests above: the hub is stopped by now.
    const semantic = await search(createTransformersEmbedder({ model: MODEL, cacheDir, remoteHost: hub.url }), "authenticate");
    expect(semantic.files[0]).toBe("notes/access.md");
    // By meaning, not by chance: the vectors alone put it first, clearly ahead of the rest.
    const [best, next] = semantic.vector;
    expect(best?.path).toBe("notes/access.md");
    expect((best?.score ?? 0) - (next?.score ?? 0)).toBeGreaterThan(0.5);
    const hashed = await search(createLocalHashEmbedder({ dimension: CODE_INDEX_LOCAL_DIMENSION }), "authenticate");
    expect(hashed.files[0]).toBe("notes/leather.md");
    expect(hashed.files[0]).not.toBe("notes/access.md");
  });
});
