import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ChromaMemory } from "../src/memory/chroma-memory.js";
import { ensureChromaServer } from "../src/memory/chroma/server.js";
import { chromaClient, openCollection, VectorWriter } from "../src/memory/collection.js";
import { createLocalHashEmbedder } from "../src/memory/embeddings/local-hash.js";
import { memoryId } from "../src/memory/memory-id.js";
import { toMetadata } from "../src/memory/records.js";
import type { MemoryKind } from "../src/memory/types.js";
import { median, ms, p95, printTable, ratio } from "./stats.js";

const KINDS: MemoryKind[] = ["lesson", "decision", "finding", "command", "note"];
const SUBJECTS = [
  "vitest",
  "jest",
  "docker",
  "postgres",
  "redis",
  "webpack",
  "vite",
  "eslint",
  "prisma",
  "express",
  "react",
  "graphql",
  "kafka",
  "nginx",
  "terraform",
];
const VERBS = ["failed because", "needs", "works only with", "was fixed by", "should use", "breaks when", "is configured in", "times out without"];
const OBJECTS = [
  "the CI cache",
  "NODE_ENV=test",
  "a missing migration",
  "src/config/index.ts",
  "--runInBand",
  "the lockfile",
  "port 5432",
  "an absolute import path",
  "the .env file",
  "strict mode",
];

/** A synthetic but developer-like memory; deterministic in i. */
function note(i: number): string {
  const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
  return `${pick(SUBJECTS, i)} ${pick(VERBS, Math.floor(i / 3))} ${pick(OBJECTS, Math.floor(i / 7))} (case ${i}, module m${i % 97})`;
}

/**
 * Add and query latency of the memory store against a real local Chroma server, at 1k and 10k memories, each beside
 * a direct `chromadb` call doing the same work, alternated sample by sample so drift hits both alike:
 * - query: ours is `search` (scope "all": this workspace first, then the others; top 5). The baseline is the same
 *   embedder's `embedQuery` plus ONE `collection.query` with the same vector, n_results 5, the workspace filter and
 *   the same includes: what a program calling chromadb itself would do.
 * - add: ours is `add` (embed, near-duplicate check, write); the baseline is `embedDocuments` plus one `collection.add`.
 */
export async function benchMemoryLatency(sizes: readonly number[] = [1_000, 10_000], samples = 150): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-memory-"));
  const endpoint = await ensureChromaServer({ dataDir });
  const embedder = createLocalHashEmbedder();
  const queryRows: string[][] = [];
  const addRows: string[][] = [];
  try {
    const client = chromaClient(endpoint);
    for (const size of sizes) {
      const collection = await openCollection(client, `bench-latency-${size}`, embedder);
      const memory = new ChromaMemory({ collection, writer: new VectorWriter(client, endpoint), embedder, clock: { now: () => Date.now() } });
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
          metadatas: texts.map((_, k) =>
            toMetadata({ kind: kinds[k] ?? "note", workspace: workspace(k), session: "bench", source: "", createdAt: 0, updatedAt: 0, mergedCount: 0 }),
          ),
        });
      }
      // A workspace with only two memories: there our search also fills from the other workspaces.
      const sparse = ["vitest needs --run in CI", "docker compose needs the .env file"];
      await collection.add({
        ids: sparse.map((text) => memoryId("/ws/sparse", "lesson", text)),
        documents: sparse,
        embeddings: await embedder.embedDocuments(sparse),
        metadatas: sparse.map(() =>
          toMetadata({ kind: "lesson", workspace: "/ws/sparse", session: "bench", source: "", createdAt: 0, updatedAt: 0, mergedCount: 0 }),
        ),
      });
      const fillMs = performance.now() - fillStart;
      const t = {
        add: [] as number[],
        directAdd: [] as number[],
        query: [] as number[],
        directQuery: [] as number[],
        sparse: [] as number[],
        directSparse: [] as number[],
      };
      const time = async (into: number[], run: () => Promise<unknown>): Promise<void> => {
        const start = performance.now();
        await run();
        into.push(performance.now() - start);
      };
      for (let s = 0; s < samples; s++) {
        const workspace = `/ws/${s % 10}`;
        const text = `${note(size + s)} — new observation ${s}`;
        const question = `why does ${note(s * 13)} fail`;
        const ours = async () => {
          await time(t.add, () => memory.add([{ kind: "lesson", text, source: "" }], { workspace, session: "bench" }));
          await time(t.query, () => memory.search({ query: question, workspace, limit: 5, scope: "all" }));
          await time(t.sparse, () => memory.search({ query: question, workspace: "/ws/sparse", limit: 5, scope: "all" }));
        };
        const direct = async () => {
          const directText = `${text} (direct)`;
          await time(t.directAdd, async () =>
            collection.add({
              ids: [memoryId(workspace, "lesson", directText)],
              documents: [directText],
              embeddings: await embedder.embedDocuments([directText]),
              metadatas: [toMetadata({ kind: "lesson", workspace, session: "bench", source: "", createdAt: 0, updatedAt: 0, mergedCount: 0 })],
            }),
          );
          await time(t.directQuery, async () =>
            collection.query({
              queryEmbeddings: [await embedder.embedQuery(question)],
              nResults: 5,
              where: { workspace },
              include: ["documents", "metadatas", "distances"],
            }),
          );
          await time(t.directSparse, async () =>
            collection.query({
              queryEmbeddings: [await embedder.embedQuery(question)],
              nResults: 5,
              where: { workspace: "/ws/sparse" },
              include: ["documents", "metadatas", "distances"],
            }),
          );
        };
        // Alternate which goes first, so neither always runs on a cache the other warmed.
        if (s % 2 === 0) {
          await ours();
          await direct();
        } else {
          await direct();
          await ours();
        }
      }
      const queryRow = (label: string, ours: number[], direct: number[]) => {
        const queryRatio = p95(ours) / p95(direct);
        const verdict = size >= 10_000 ? (queryRatio <= 1.3 ? " (target ≤ 1.3×: met)" : " (target ≤ 1.3×: NOT met)") : "";
        return [`${size}, ${label}`, `${ms(median(ours))} / ${ms(median(direct))}`, `${ms(p95(ours))} / ${ms(p95(direct))}`, `${ratio(queryRatio)}${verdict}`];
      };
      queryRows.push(
        queryRow("workspace with ~10% of them", t.query, t.directQuery),
        queryRow("workspace with 2 (filled from others)", t.sparse, t.directSparse),
      );
      addRows.push([
        `${size}`,
        `${(fillMs / 1000).toFixed(1)} s`,
        `${ms(median(t.add))} / ${ms(median(t.directAdd))}`,
        `${ms(p95(t.add))} / ${ms(p95(t.directAdd))}`,
        ratio(p95(t.add) / p95(t.directAdd)),
      ]);
    }
  } finally {
    await endpoint.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  printTable(
    `Memory query — real local Chroma, embedder ${embedder.id}, ${samples} samples per row, ours and direct chromadb alternated. ` +
      "Ours: search (this workspace first, then the others; top 5). Direct: embedQuery + one collection.query (same vector, n_results 5, the workspace filter, same includes)",
    ["memories, querying workspace", "p50 ours / direct", "p95 ours / direct", "p95 ÷ direct"],
    queryRows,
  );
  printTable(
    "Memory add — ours: embed + near-duplicate check + write; direct: embedDocuments + one collection.add (report only, no target)",
    ["memories", "prefill", "p50 ours / direct", "p95 ours / direct", "p95 ÷ direct"],
    addRows,
  );
  console.log("   Target (issue 11): memory query p95 at 10k memories at most 1.3× a direct chromadb query with the same filter.");
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMemoryLatency();
