import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Collection } from "chromadb";
import { chromaClient, VectorWriter } from "../../../src/memory/collection.js";
import { base64Vector } from "../../../src/memory/chroma/record-writes.js";
import type { ChromaEndpoint } from "../../../src/memory/chroma/types.js";
import { startTestChroma, testChromaEndpoint, type TestChroma } from "../../helpers/chroma.js";

let chroma: TestChroma;
let counter = 0;

function endpoint(): ChromaEndpoint {
  return testChromaEndpoint(chroma);
}

async function freshCollection(): Promise<{ collection: Collection; writer: VectorWriter }> {
  const client = chromaClient(endpoint());
  const collection = await client.createCollection({ name: `writes-${++counter}`, embeddingFunction: null, configuration: { hnsw: { space: "cosine" } } });
  return { collection, writer: new VectorWriter(client, endpoint()) };
}

/** Chroma stores float32 (a cosine collection within a float32 rounding of what was sent): compare to 1e-6. */
function expectSameVector(got: Iterable<number> | undefined, sent: readonly number[]): void {
  const values = Array.from(got ?? []);
  expect(values).toHaveLength(sent.length);
  const worst = Math.max(...values.map((x, i) => Math.abs(x - (sent[i] ?? 0)) / Math.max(1e-3, Math.abs(sent[i] ?? 0))));
  expect(worst).toBeLessThan(1e-6);
}
const vector = (seed: number, dimension = 64) => Array.from({ length: dimension }, (_, i) => Math.sin(seed * 7 + i) * (i % 3 === 0 ? 1e-3 : 3));

beforeAll(async () => {
  chroma = await startTestChroma();
});
afterAll(async () => {
  await chroma.stop();
});

describe("base64Vector", () => {
  it("is the vector's float32 values, little-endian, in base64", () => {
    const v = [1, -2.5, 0.1, 3.4028234663852886e38, -0, 1e-40];
    const bytes = Buffer.from(base64Vector(v), "base64");
    expect(bytes.length).toBe(v.length * 4);
    const decoded = Array.from({ length: v.length }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(v.map((x) => Math.fround(x)));
  });
});

describe("VectorWriter on a real Chroma", () => {
  it("upserts vectors, metadata and documents that Chroma gives back as written, and updates them", async () => {
    const { collection, writer } = await freshCollection();
    const ids = ["a", "b", "c"];
    await writer.write(collection, "upsert", {
      ids,
      embeddings: ids.map((_, i) => vector(i)),
      metadatas: ids.map((id, i) => ({ path: `src/${id}.ts`, startLine: i, kind: "function" })),
      documents: ["alpha", "beta", "gamma"],
    });
    const got = await collection.get({ ids, include: ["embeddings", "metadatas", "documents"] });
    expect(got.ids).toEqual(ids);
    expect(got.documents).toEqual(["alpha", "beta", "gamma"]);
    expect(got.metadatas).toEqual(ids.map((id, i) => ({ path: `src/${id}.ts`, startLine: i, kind: "function" })));
    got.embeddings.forEach((e, i) => expectSameVector(e, vector(i)));

    // A nearest-neighbour query finds each by its own vector: the vectors landed where Chroma searches.
    const nearest = await collection.query({ queryEmbeddings: [vector(2)], nResults: 1 });
    expect(nearest.ids[0]).toEqual(["c"]);

    await writer.write(collection, "update", { ids: ["b"], embeddings: [vector(9)], metadatas: [{ path: "src/b2.ts" }], documents: ["beta two"] });
    const updated = await collection.get({ ids: ["b"], include: ["embeddings", "metadatas", "documents"] });
    expect(updated.documents).toEqual(["beta two"]);
    expect(updated.metadatas[0]).toMatchObject({ path: "src/b2.ts" });
    expectSameVector(updated.embeddings[0], vector(9));
  });

  it("writes through the client when the server does not read base64", async () => {
    const client = chromaClient(endpoint());
    const collection = await client.createCollection({ name: `writes-${++counter}`, embeddingFunction: null });
    const writer = new VectorWriter({ supportsBase64Encoding: () => Promise.resolve(false) }, endpoint());
    await writer.write(collection, "upsert", { ids: ["x"], embeddings: [vector(1)], metadatas: [{ path: "x.ts" }] });
    const got = await collection.get({ ids: ["x"], include: ["embeddings", "metadatas"] });
    expect(got.metadatas).toEqual([{ path: "x.ts" }]);
    expectSameVector(got.embeddings[0], vector(1));
  });

  it("says what Chroma refused, with its status and message", async () => {
    const { collection, writer } = await freshCollection();
    await writer.write(collection, "upsert", { ids: ["a"], embeddings: [vector(1, 64)] });
    const error = await writer.write(collection, "upsert", { ids: ["b"], embeddings: [vector(2, 32)] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/Chroma refused the upsert of 1 records \(HTTP 4\d\d\): .*dimension/i);
    expect((await collection.get({ ids: ["b"] })).ids).toEqual([]);
  });
});
