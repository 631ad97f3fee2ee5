import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import MiniSearch from "minisearch";
import { ensureChromaServer } from "../src/memory/chroma/server.js";
import { chromaClient, VectorWriter } from "../src/memory/collection.js";
import { systemClock } from "../src/runtime/clock.js";
import { openCodeCollection } from "../src/retrieval/code-collection.js";
import { createCodeEmbedder } from "../src/retrieval/code-embedder.js";
import { CodeIndex } from "../src/retrieval/code-index.js";
import { LexicalIndex, lexicalTerms, type LexicalDoc } from "../src/retrieval/lexical.js";
import { ms, printTable, ratio } from "./stats.js";

/**
 * The codebase index on a large workspace: a full build, then a session's load of that index in a fresh process
 * (the BM25 side is rebuilt in process each time), with the event loop's longest stall, CPU, heap and peak RSS;
 * beside it, MiniSearch indexing the same chunks in the same process (the library the BM25 side used before).
 * The workspace is source files copied from this repository's node_modules (no dist/build folders, no .d.ts or
 * minified files). Standalone (not part of npm run bench: a large build takes minutes):
 *   node --import tsx bench/retrieval-scale.ts            (2,000 files)
 *   MINI_CURSOR_BENCH_SCALE_FILES=8000 node --import tsx bench/retrieval-scale.ts
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = /\.(c|m)?(js|ts)$/;
const SKIPPED_DIRS = new Set(["dist", "build", "out", "vendor", ".bin"]);

async function sourceFiles(dir: string, limit: number, found: string[] = []): Promise<string[]> {
  const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (found.length >= limit) break;
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) await sourceFiles(full, limit, found);
    else if (e.isFile() && SOURCE.test(e.name) && !/\.d\.(c|m)?ts$|\.min\.js$/.test(e.name) && (await fs.stat(full)).size < 200_000) found.push(full);
  }
  return found;
}

interface Phase {
  wallMs: number;
  cpuMs: number;
  maxStallMs: number;
  heapMb: number;
  peakRssMb: number;
  files: number;
  chunks: number;
  bm25Ms?: number;
  bm25HeapMb?: number;
  miniSearchMs?: number;
  miniSearchHeapMb?: number;
}

/** One phase in this (fresh) process: `build` (the index was just cleared) or `load`. Prints a Phase as JSON. */
async function runPhase(phase: "build" | "load", root: string, chromaUrl: string): Promise<void> {
  const endpoint = await ensureChromaServer({ dataDir: path.join(root, ".unused"), chromaUrl });
  const embedder = createCodeEmbedder({ kind: "local" });
  const client = chromaClient(endpoint);
  const index = new CodeIndex({ root, collection: await openCodeCollection(client, root, embedder), writer: new VectorWriter(client, endpoint), embedder, clock: systemClock, allowCredentialFiles: false });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  if (phase === "build") await index.update();
  else await index.load();
  const wallMs = performance.now() - t0;
  const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
  // A stall at the very end is recorded only once the loop turns again.
  await new Promise((r) => setTimeout(r, 30));
  stalls.disable();
  gc?.();
  const result: Phase = { wallMs, cpuMs, maxStallMs: stalls.max / 1e6, heapMb: process.memoryUsage().heapUsed / 1e6, peakRssMb: process.resourceUsage().maxRSS / 1024, ...index.stats() };
  if (phase === "load") {
    // The BM25 side alone, ours and the baseline (MiniSearch, configured as the BM25 side was), on the same
    // chunks, one after the other in this process: time to index them all, and the heap each index keeps.
    const chunks = [...(index as unknown as { chunks: Map<string, LexicalDoc> }).chunks.values()];
    const measure = (indexAll: () => { size: number }) => {
      gc?.();
      const before = process.memoryUsage().heapUsed;
      const t1 = performance.now();
      const built = indexAll();
      const took = performance.now() - t1;
      gc?.();
      if (built.size !== chunks.length) throw new Error("an index holds a different number of chunks");
      return { ms: took, heapMb: (process.memoryUsage().heapUsed - before) / 1e6, keep: built };
    };
    const ours = measure(() => {
      const lexical = new LexicalIndex();
      lexical.add(chunks);
      return lexical;
    });
    const theirs = measure(() => {
      const search = new MiniSearch({ fields: ["symbol", "path", "text"], storeFields: ["path"], tokenize: (t) => lexicalTerms(t), processTerm: (t) => t });
      search.addAll(chunks);
      return { size: search.documentCount, search };
    });
    Object.assign(result, { bm25Ms: ours.ms, bm25HeapMb: ours.heapMb, miniSearchMs: theirs.ms, miniSearchHeapMb: theirs.heapMb });
    // Both alive until both are measured.
    if (ours.keep.size !== theirs.keep.size) throw new Error("unreachable");
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function phaseInChild(phase: "build" | "load", root: string, chromaUrl: string): Phase {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), phase, root, chromaUrl], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const line = out.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as Phase;
}

export async function benchRetrievalScale(fileCount: number): Promise<void> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-bench-scale-")));
  const endpoint = await ensureChromaServer({ dataDir: path.join(tmp, "chroma") });
  try {
    const root = path.join(tmp, "workspace");
    const modules = path.join(repoRoot, "node_modules");
    for (const file of await sourceFiles(modules, fileCount)) {
      const target = path.join(root, "pkgs", path.relative(modules, file));
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.copyFile(file, target);
    }
    const build = phaseInChild("build", root, endpoint.url);
    const load = phaseInChild("load", root, endpoint.url);
    const mb = (v: number | undefined) => (v === undefined ? "n/a" : `${v.toFixed(0)} MB`);
    printTable(`Codebase index at scale: ${build.files} files, ${build.chunks} chunks (source files from node_modules), offline embedder`, ["phase (fresh process)", "wall", "CPU", "longest event-loop stall", "heap after", "peak RSS"], [
      ["full build", ms(build.wallMs, 0), ms(build.cpuMs, 0), ms(build.maxStallMs, 0), mb(build.heapMb), mb(build.peakRssMb)],
      ["a session's load of the index", ms(load.wallMs, 0), ms(load.cpuMs, 0), ms(load.maxStallMs, 0), mb(load.heapMb), mb(load.peakRssMb)],
    ]);
    printTable("   The BM25 side alone on the same chunks, in the load's process: ours against MiniSearch (what it replaced)", ["", "ours", "MiniSearch", "ours ÷ MiniSearch"], [
      ["time to index every chunk", ms(load.bm25Ms ?? Number.NaN, 0), ms(load.miniSearchMs ?? Number.NaN, 0), ratio((load.bm25Ms ?? Number.NaN) / (load.miniSearchMs ?? Number.NaN))],
      ["heap the index keeps", mb(load.bm25HeapMb), mb(load.miniSearchHeapMb), ratio((load.bm25HeapMb ?? Number.NaN) / (load.miniSearchHeapMb ?? Number.NaN))],
    ]);
  } finally {
    await endpoint.stop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

const [phase, root, chromaUrl] = process.argv.slice(2);
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if ((phase === "build" || phase === "load") && root && chromaUrl) await runPhase(phase, root, chromaUrl);
  else await benchRetrievalScale(Number(process.env.MINI_CURSOR_BENCH_SCALE_FILES ?? 2_000));
}
