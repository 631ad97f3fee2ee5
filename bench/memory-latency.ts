import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ChromaMemory } from "../src/memory/chroma-memory.js";
import { ensureChromaServer } from "../src/memory/chroma/server.js";
import { chromaClient, openCollection } from "../src/memory/collection.js";
import { createLocalHashEmbedder } from "../src/memory/embeddings/local-hash.js";
import { memoryId, toMetadata } from "../src/memory/records.js";
import type { MemoryKind } from "../src/memory/types.js";
import { median, ms, p95, printTable } from "./stats.js";

const KINDS: MemoryKind[] = ["lesson", "decision", "finding", "command", "note"];
const SUBJECTS = ["vitest", "jest", "docker", "postgres", "redis", "webpack", "vite", "eslint", "prisma", "express", "react", "graphql", "kafka", "nginx", "terraform"];
const VERBS = ["failed because", "needs", "works only with", "was fixed by", "should use", "breaks when", "is configured in", "times out without"];
const OBJECTS = ["the CI cache", "NODE_ENV=test", "a missing migration", "src/config/index.ts", "--runInBand", "the lockfile", "port 5432", "an absolute import path", "the .env file", "strict mode"];

/** A synthetic but developer-like memory; deterministic in i. */
function note(i: number): string {
  const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
  return `${pick(SUBJECTS, i)} ${pick(VERBS, Math.floor(i / 3))} ${pick(OBJECTS, Math.floor(i / 7))} (case ${i}, module m${i % 97})`;
}

/**
 * Add and query latency of the memory store against a real local Chroma server, at 1k and 10k memories.
 * The collection is prefilled in batches; then each `add` (near-duplicate check + write) and each
 * `search` (workspace query + global query) is timed through the store's own API.
 */
export async function benchMemoryLatency(sizes: readonly number[] = [1_000, 10_000], samples = 150): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-memory-"));
  const endpoint = await ensureChromaServer({ dataDir });
  const embedder = createLocalHashEmbedder();
  const rows: string[][] = [];
  try {
    const client = chromaClient(endpoint);
    for (const size of sizes) {
      const collection = await openCollection(client, `bench-latency-${size}`, embedder);
      const memory = new ChromaMemory({ collection, embedder, clock: { now: () => Date.now() } });
      const fillStart = performance.now();
      for (let i = 0; i < size; i += 500) {
        const n = Math.min(500, size - i);
        const texts = Array.from({ length: n }, (_, k) => note(i + k));
        const kinds = texts.map((_, k) => KINDS[(i + k) % KINDS.length] ?? "note");
        const workspace = (k: number) => `/ws/${(i + k) % 10}`;
        await collection.add({
          ids: texts.map((t, k) => memoryId(workspace(k), kinds[k] ?? "note", t)),
          documents: texts,
          embeddings: await embedder.embedDocuments(texts),
          metadatas: texts.map((_, k) => toMetadata({ kind: kinds[k] ?? "note", workspace: workspace(k), session: "bench", source: "", createdAt: 0, updatedAt: 0, mergedCount: 0 })),
        });
      }
      const fillMs = performance.now() - fillStart;
      const adds: number[] = [];
      const queries: number[] = [];
      for (let s = 0; s < samples; s++) {
        const text = `${note(size + s)} — new observation ${s}`;
        let t = performance.now();
        await memory.add([{ kind: "lesson", text, source: "" }], { workspace: `/ws/${s % 10}`, session: "bench" });
        adds.push(performance.now() - t);
        t = performance.now();
        await memory.search({ query: `why does ${note(s * 13)} fail`, workspace: `/ws/${s % 10}`, limit: 5, scope: "all" });
        queries.push(performance.now() - t);
      }
      rows.push([`${size}`, `${(fillMs / 1000).toFixed(1)} s`, ms(median(adds)), ms(p95(adds)), ms(median(queries)), ms(p95(queries))]);
    }
  } finally {
    await endpoint.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  printTable(
    `Memory store latency — real local Chroma, local-hash-v1 embedder (${embedder.id}), ${samples} samples per size; add = near-duplicate check + write, query = this workspace then global, top 5`,
    ["memories", "prefill", "add p50", "add p95", "query p50", "query p95"],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMemoryLatency();
