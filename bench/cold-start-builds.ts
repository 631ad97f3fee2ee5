import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ensureChromaServer } from "../src/memory/chroma/server.js";
import { chromaClient, openCollection } from "../src/memory/collection.js";
import { createLocalHashEmbedder } from "../src/memory/embeddings/local-hash.js";
import { memoryId } from "../src/memory/memory-id.js";
import { toMetadata } from "../src/memory/records.js";
import { DEFAULT_COLLECTION } from "../src/memory/types.js";
import { openSessionDatabase } from "../src/sessions/database.js";
import { median } from "./stats.js";

/**
 * The quick commands (`--help`, `sessions` on 50 sessions, `memory list` with 200 memories on a running local server,
 * `--version`) of two or more builds, alternating with a bare `node -e 0` in one invocation:
 * `node --import tsx bench/cold-start-builds.ts A/dist/cli/main.js B/dist/cli/main.js`. MINI_CURSOR_BENCH_AB_REPS
 * runs of each (default 20) after a warm-up; without NODE_EXTRA_CA_CERTS (see cold-start.ts). Not part of
 * `npm run bench`: a tool for measuring one change to the entry.
 */

const builds = process.argv.slice(2).map((f) => path.resolve(f));
if (builds.length < 1) throw new Error("usage: bench/cold-start-builds.ts <build A main.js> [more builds]");
const runs = Number(process.env.MINI_CURSOR_BENCH_AB_REPS ?? 20);
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
function time(args: string[], extra: Record<string, string> = {}): number {
  const s = performance.now();
  const c = spawnSync(process.execPath, args, { env: { ...env, ...extra }, stdio: ["ignore", "pipe", "pipe"] });
  const e = performance.now() - s;
  if (c.status !== 0) throw new Error(`${args.join(" ")}: ${c.status} ${c.stderr}`);
  return e;
}
const workspace = mkdtempSync(path.join(os.tmpdir(), "qab-ws-"));
let now = Date.UTC(2026, 0, 1);
const index = openSessionDatabase(workspace, { now: () => (now += 1000) });
for (let i = 0; i < 50; i++) {
  const id = `bench-${String(i).padStart(4, "0")}`;
  index.sessions.create({ id, task: `benchmark task ${i}`, workspace, model: "scripted", options: "{}" });
  index.sessions.update(id, { status: "done", inputTokens: 1200 + i, outputTokens: 300 + i, costUsd: 0.01 });
}
index.close();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "qab-data-"));
const endpoint = await ensureChromaServer({ dataDir });
const embedder = createLocalHashEmbedder();
const collection = await openCollection(chromaClient(endpoint), DEFAULT_COLLECTION, embedder);
const texts = Array.from({ length: 200 }, (_, i) => `benchmark memory ${i}: the fixture ${i % 17} first`);
await collection.add({
  ids: texts.map((t) => memoryId(workspace, "note", t)),
  documents: texts,
  embeddings: await embedder.embedDocuments(texts),
  metadatas: texts.map((_, i) => toMetadata({ kind: "note", workspace, session: "bench", source: "", createdAt: i, updatedAt: i, mergedCount: 0 })),
});
const cases: [string, (cli: string) => string[], Record<string, string>][] = [
  ["--help", (cli) => [cli, "--help"], {}],
  ["sessions (50)", (cli) => [cli, "sessions", "--workspace", workspace], {}],
  ["memory list (200, running server)", (cli) => [cli, "memory", "list", "--workspace", workspace], { MINI_CURSOR_DATA_DIR: dataDir }],
  ["--version", (cli) => [cli, "--version"], {}],
];
try {
  for (const [label, args, extra] of cases) {
    const bare: number[] = [];
    const t = builds.map(() => [] as number[]);
    for (const b of builds) time(args(b), extra);
    for (let i = 0; i < runs; i++) {
      bare.push(time(["-e", "0"]));
      builds.forEach((b, n) => t[n]?.push(time(args(b), extra)));
    }
    const figures = builds.map((b, n) => `${b} ${median(t[n] ?? []).toFixed(1)} ms (${(median(t[n] ?? []) / median(bare)).toFixed(2)}×)`);
    console.log(`${label}, medians: node -e 0 ${median(bare).toFixed(1)} ms; ${figures.join("; ")}`);
  }
} finally {
  await endpoint.stop();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
