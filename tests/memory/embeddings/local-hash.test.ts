import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cosineSimilarity } from "../../../src/memory/embeddings/cosine.js";
import { createLocalHashEmbedder, LOCAL_HASH_DEFAULT_DIMENSION, LOCAL_HASH_ID } from "../../../src/memory/embeddings/local-hash.js";
import { EmbedderError } from "../../../src/memory/embeddings/types.js";

const NOTES = {
  routes: "The API routes live in src/server/routes.ts; handlers are registered in registerRoutes(app).",
  vitest: "vitest needs --run in CI, otherwise it starts watch mode and the job hangs.",
  jest: "npm test failed because jest wasn't installed; switched the test script to vitest run.",
  docker: "The container exited immediately because entrypoint.sh had CRLF line endings.",
  pandas: "pandas read_csv dropped leading zeros of customer_id; pass dtype string.",
};

const norm = (v: number[]) => Math.hypot(...v);

/** Notes ordered by similarity to the query, best first. */
async function rank(query: string): Promise<string[]> {
  const embedder = createLocalHashEmbedder();
  const q = await embedder.embedQuery(query);
  const names = Object.keys(NOTES) as (keyof typeof NOTES)[];
  const vectors = await embedder.embedDocuments(names.map((n) => NOTES[n]));
  return names
    .map((name, i) => ({ name, score: cosineSimilarity(q, vectors[i] ?? []) }))
    .sort((a, b) => b.score - a.score)
    .map((r) => r.name);
}

describe("createLocalHashEmbedder", () => {
  it("has a stable id and a fixed dimension", async () => {
    const embedder = createLocalHashEmbedder();
    expect(embedder.id).toBe(LOCAL_HASH_ID);
    expect(embedder.id).toBe("local-hash-v1");
    expect(await embedder.dimension()).toBe(LOCAL_HASH_DEFAULT_DIMENSION);
    const [v] = await embedder.embedDocuments([NOTES.routes]);
    expect(v).toHaveLength(LOCAL_HASH_DEFAULT_DIMENSION);
    expect(await createLocalHashEmbedder({ dimension: 64 }).embedQuery("x y z")).toHaveLength(64);
  });

  it("is deterministic: the same text gives the identical vector in separate instances", async () => {
    const a = await createLocalHashEmbedder().embedDocuments(Object.values(NOTES));
    const b = await createLocalHashEmbedder().embedDocuments(Object.values(NOTES));
    expect(b).toEqual(a);
    // Queries and documents share one space.
    expect(await createLocalHashEmbedder().embedQuery(NOTES.vitest)).toEqual(a[1]);
  });

  it("gives unit-norm vectors", async () => {
    for (const v of await createLocalHashEmbedder().embedDocuments(Object.values(NOTES))) {
      expect(norm(v)).toBeCloseTo(1, 10);
    }
  });

  it("handles empty, blank, punctuation-only and stopword-only text without NaN", async () => {
    const embedder = createLocalHashEmbedder();
    const vectors = await embedder.embedDocuments(["", "   \n\t", "?!... ---", "what is this"]);
    for (const v of vectors) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
    const note = await embedder.embedQuery(NOTES.routes);
    expect(Number.isNaN(cosineSimilarity(vectors[0] ?? [], note))).toBe(false);
    expect(Math.abs(cosineSimilarity(vectors[0] ?? [], note))).toBeLessThan(0.2);
    // All empty texts land on the same vector.
    expect(vectors[1]).toEqual(vectors[0]);
  });

  it("matches a word inside a path: 'routes' and 'server' find the routes note", async () => {
    expect((await rank("routes"))[0]).toBe("routes");
    expect((await rank("which file defines the server?"))[0]).toBe("routes");
    expect((await rank("registerRoutes"))[0]).toBe("routes");
  });

  it("ranks notes by shared words, inflections and identifiers", async () => {
    expect((await rank("why does the CI job hang?"))[0]).toBe("vitest");
    expect((await rank("jest not installed"))[0]).toBe("jest");
    expect((await rank("containers exiting right away"))[0]).toBe("docker");
    expect((await rank("customerId loses leading zero"))[0]).toBe("pandas");
  });

  it("tolerates a small typo through character trigrams", async () => {
    expect((await rank("entrypoitn line endigns"))[0]).toBe("docker");
  });

  it("is closer for the related note than for an unrelated one", async () => {
    const embedder = createLocalHashEmbedder();
    const [q, routes, pandas] = await embedder.embedDocuments(["routes", NOTES.routes, NOTES.pandas]);
    expect(cosineSimilarity(q ?? [], routes ?? [])).toBeGreaterThan(cosineSimilarity(q ?? [], pandas ?? []) + 0.1);
  });

  it("gives the very vectors local-hash-v1 always gave: stored collections stay comparable", async () => {
    // Digests of the exact doubles, taken before the tokenizer's ASCII fast path and the typed-array accumulation.
    const texts = [
      "The API routes live in src/server/routes.ts; handlers are registered in registerRoutes(app).",
      "export function parseHTTPHeaders_v2(raw: string): Map<string, string[]> { /* sqlite3 1Gi */ }",
      "Ünïcode café naïve — don't fret; wasn’t it?",
    ];
    const digests = async (dimension: number) =>
      (await createLocalHashEmbedder({ dimension }).embedDocuments(texts)).map((v) =>
        createHash("sha256")
          .update(Buffer.from(Float64Array.from(v).buffer))
          .digest("hex")
          .slice(0, 16),
      );
    expect(await digests(1024)).toEqual(["c8b50ec2142e18cf", "089cf71e9f65f817", "29d2e1077494b877"]);
    expect(await digests(2048)).toEqual(["ff546fcbabaf76aa", "2c0b9bdea5de585b", "98059854c84b592c"]);
  });

  it("rejects a silly dimension", () => {
    expect(() => createLocalHashEmbedder({ dimension: 0 })).toThrow(EmbedderError);
    expect(() => createLocalHashEmbedder({ dimension: 100.5 })).toThrow(EmbedderError);
  });
});
