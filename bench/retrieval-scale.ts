import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureChromaServer } from "../src/memory/chroma/server.js";
import { chromaClient } from "../src/memory/collection.js";
import { createCodeEmbedder } from "../src/memory/retrieval/code-embedder.js";
import { CodeIndex } from "../src/memory/retrieval/code-index.js";
import { runGit } from "../src/platform/git.js";
import { startLauncher } from "../src/platform/launcher/index.js";
import { readServerState } from "../src/memory/chroma/state-file.js";
import { indexStoreFile } from "../src/memory/retrieval/index-store.js";
import { cliSearchTimes } from "./retrieval.js";
import { BENCH_GIT_ENV, benchIndex, commitWorkspace } from "./retrieval-embedders.js";
import { ms, printTable } from "./stats.js";

/**
 * The codebase index on a large workspace, each phase in a fresh process, with the event loop's longest stall, CPU,
 * heap and peak RSS: a full build; a session's load of that index (its SQLite store on disk is in step with Chroma:
 * nothing to read back) and a search; and the rebuild of the store from Chroma that a missing or out-of-step store
 * costs (after an upgrade, or a crash between the two writes), which is what every session's load cost when the
 * BM25 side lived in memory.
 * The workspace is source files copied from this repository's node_modules (no dist/build folders, no .d.ts or
 * minified files). Standalone (not part of npm run bench: a large build takes minutes):
 *   node --import tsx bench/retrieval-scale.ts            (2,000 files)
 *   MINI_CURSOR_BENCH_SCALE_FILES=1000,5000 node --import tsx bench/retrieval-scale.ts   (several sizes in one run)
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
  /** After the load: a hybrid search's wall time over the questions (median and p95). */
  searchMs?: number;
  searchP95Ms?: number;
  storeMb?: number;
  /** Files an update re-embedded. */
  changed?: number;
  /** noop-series: the updates' median and slowest wall time, and `git status` alone between them (median). */
  series?: { medianMs: number; maxMs: number; gitStatusMs: number };
}

type PhaseName = "build" | "load" | "rebuild" | "update-walk" | "update-git" | "noop-series";
const PHASES: readonly string[] = ["build", "load", "rebuild", "update-walk", "update-git", "noop-series"];
/** No-op updates timed one after another in one process, as a session runs them between steps. */
const NOOP_SERIES = 10;
const QUESTIONS = [
  "parse command line arguments",
  "read a file as text",
  "retry a request after a delay",
  "escape html entities",
  "compare two versions",
  "resolve a module path",
  "format a date as a string",
  "merge two objects deeply",
  "validate an email address",
  "stream a response body",
  "convert camel case to kebab case",
  "walk a directory recursively",
  "hash a string with sha256",
  "wait until a promise settles with a timeout",
  "encode a url query string",
  "check whether a value is a plain object",
  "spawn a child process and collect its output",
  "debounce a function call",
  "decode base64 text",
  "sort an array by a key",
];
/** Questions asked through the CLI (each is a process: about half a second). */
const CLI_QUESTIONS = 8;

/** One phase in this (fresh) process; `rebuild` deletes the store first. Prints a Phase as JSON. */
async function runPhase(phase: PhaseName, root: string, chromaUrl: string, storeFile: string): Promise<void> {
  const endpoint = await ensureChromaServer({ dataDir: path.join(root, ".unused"), chromaUrl });
  const embedder = createCodeEmbedder({ kind: "local" });
  const client = chromaClient(endpoint);
  if (phase === "rebuild") for (const suffix of ["", "-wal", "-shm"]) await fs.rm(`${storeFile}${suffix}`, { force: true });
  const index = await benchIndex(root, client, endpoint, embedder, {
    storeFile,
    // The walk's phase does without git, as in a workspace that is not a repository.
    ...(phase === "update-walk" ? {} : { gitEnv: BENCH_GIT_ENV }),
  });
  // An update is timed in a session that has its index loaded already and has run a program before (the process
  // launcher a session's commands start is up): the figure is the update's own.
  if (phase.startsWith("update") || phase === "noop-series") {
    // As the faces that run sessions do, first thing: programs are started by the launcher, not forked from here.
    startLauncher();
    await index.load();
    await runGit(["--version"], { scope: "repository", cwd: root, env: process.env });
  }
  if (phase === "noop-series") {
    process.stdout.write(`${JSON.stringify(await noopSeries(index, root))}\n`);
    await index.close();
    return;
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let changed: number | undefined;
  if (phase === "build" || phase.startsWith("update")) changed = (await index.update()).changed;
  else await index.load();
  const wallMs = performance.now() - t0;
  const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
  // A stall at the very end is recorded only once the loop turns again.
  await new Promise((r) => setTimeout(r, 30));
  stalls.disable();
  gc?.();
  const result: Phase = {
    wallMs,
    cpuMs,
    maxStallMs: stalls.max / 1e6,
    heapMb: process.memoryUsage().heapUsed / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    ...index.stats(),
    storeMb: (await fs.stat(storeFile)).size / 1e6,
    ...(changed !== undefined ? { changed } : {}),
  };
  if (phase === "load") {
    const times: number[] = [];
    for (const query of QUESTIONS) {
      const t1 = performance.now();
      await index.search({ query });
      times.push(performance.now() - t1);
    }
    times.sort((a, b) => a - b);
    result.searchMs = times[Math.floor(times.length / 2)];
    result.searchP95Ms = times[Math.ceil(times.length * 0.95) - 1];
  }
  await index.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * A session's no-op updates: a first one, then NOOP_SERIES timed, each followed by the `git status` an update runs,
 * alone (the floor an update by git cannot go under, measured in the same moments).
 */
async function noopSeries(index: CodeIndex, root: string): Promise<Phase> {
  await index.update();
  const updates: number[] = [];
  const statuses: number[] = [];
  let cpuMs = 0;
  for (let i = 0; i < NOOP_SERIES; i++) {
    let t = performance.now();
    const cpu = process.cpuUsage();
    await index.update();
    updates.push(performance.now() - t);
    cpuMs += (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
    t = performance.now();
    await runGit(["status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=all", "--no-renames", "--", "."], {
      scope: "repository",
      cwd: root,
      env: BENCH_GIT_ENV,
    });
    statuses.push(performance.now() - t);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;
  return {
    wallMs: median(updates),
    cpuMs: cpuMs / NOOP_SERIES,
    maxStallMs: Number.NaN,
    heapMb: process.memoryUsage().heapUsed / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    ...index.stats(),
    series: { medianMs: median(updates), maxMs: Math.max(...updates), gitStatusMs: median(statuses) },
  };
}

function phaseInChild(phase: PhaseName, root: string, chromaUrl: string, storeFile: string): Phase {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), phase, root, chromaUrl, storeFile], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = out.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as Phase;
}

/** The Chroma server's peak resident memory so far (Linux: VmHWM of its process), in MB. */
async function chromaPeakRssMb(dataDir: string): Promise<number | undefined> {
  const pid = readServerState(dataDir)?.pid;
  if (pid === undefined) return undefined;
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

export async function benchRetrievalScale(fileCount: number): Promise<void> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-bench-scale-")));
  const chromaDir = path.join(tmp, "chroma");
  const endpoint = await ensureChromaServer({ dataDir: chromaDir });
  try {
    const root = path.join(tmp, "workspace");
    const modules = path.join(repoRoot, "node_modules");
    for (const file of await sourceFiles(modules, fileCount)) {
      const target = path.join(root, "pkgs", path.relative(modules, file));
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.copyFile(file, target);
    }
    // A git repository, as most projects are: updates can ask git what changed.
    commitWorkspace(root, "files");
    // Where a session (and `mini-cursor index search`) finds the store of this workspace.
    const dataDir = path.join(tmp, "data");
    const storeFile = indexStoreFile(dataDir, root);
    const build = phaseInChild("build", root, endpoint.url, storeFile);
    const chromaAfterBuild = await chromaPeakRssMb(chromaDir);
    const load = phaseInChild("load", root, endpoint.url, storeFile);
    const rebuild = phaseInChild("rebuild", root, endpoint.url, storeFile);
    const noopWalk = phaseInChild("update-walk", root, endpoint.url, storeFile);
    const noopGit = phaseInChild("update-git", root, endpoint.url, storeFile);
    const edited = path.join(root, "pkgs", "edited-by-bench.ts");
    await fs.writeFile(edited, "/** Keeps a reading inside the sensor's range. */\nexport function clampReading(v: number) { return v; }\n");
    const oneWalk = phaseInChild("update-walk", root, endpoint.url, storeFile);
    await fs.appendFile(edited, "export const again = 1;\n");
    const oneGit = phaseInChild("update-git", root, endpoint.url, storeFile);
    // Again, now that git's own index is refreshed (files written in the second of its last write are hashed again).
    const noopGitAgain = phaseInChild("update-git", root, endpoint.url, storeFile);
    const series = phaseInChild("noop-series", root, endpoint.url, storeFile);
    const mb = (v: number | undefined) => (v === undefined ? "n/a" : `${v.toFixed(0)} MB`);
    const row = (label: string, p: Phase) => [label, ms(p.wallMs, 0), ms(p.cpuMs, 0), ms(p.maxStallMs, 0), mb(p.heapMb), mb(p.peakRssMb)];
    printTable(
      `Codebase index at scale: ${build.files} files, ${build.chunks} chunks (source files from node_modules), offline embedder`,
      ["phase (fresh process)", "wall", "CPU", "longest event-loop stall", "heap after", "peak RSS"],
      [
        row("full build", build),
        row("a session's load of the index (store on disk in step)", load),
        row("rebuilding the store from Chroma (no store, or out of step)", rebuild),
        row("update, nothing changed: walking the tree", noopWalk),
        row("update, nothing changed: asking git", noopGit),
        row(`update, one file new: walking (${oneWalk.changed ?? "?"} re-embedded)`, oneWalk),
        row(`update, that file changed: asking git (${oneGit.changed ?? "?"} re-embedded)`, oneGit),
        row("update, nothing changed: asking git again", noopGitAgain),
      ],
    );
    if (series.series) {
      const { medianMs, maxMs, gitStatusMs } = series.series;
      console.log(
        `   A session's no-op updates (${NOOP_SERIES} in one process, after its first): median ${ms(medianMs, 0)}, slowest ${ms(maxMs, 0)}, ` +
          `CPU ${ms(series.cpuMs, 1)} each (git's own CPU not counted); \`git status\` alone between them: ${ms(gitStatusMs, 0)} (update / git status ${(medianMs / gitStatusMs).toFixed(2)}).`,
      );
    }
    const cli = cliSearchTimes(root, dataDir, endpoint.url, QUESTIONS.slice(0, CLI_QUESTIONS));
    console.log(
      `   SQLite store: ${mb(build.storeMb)}; Chroma's peak RSS during the build: ${mb(chromaAfterBuild)}; a hybrid search after the load, in process: ` +
        `p50 ${ms(load.searchMs ?? Number.NaN, 1)}, p95 ${ms(load.searchP95Ms ?? Number.NaN, 1)} (${QUESTIONS.length} questions); through \`mini-cursor index search\`: ` +
        `p50 ${ms(cli.search, 0)}, p95 ${ms(cli.searchP95, 0)} (${CLI_QUESTIONS} questions, its update included; the CLI's bare start ${ms(cli.version, 0)}); ripgrep ${ms(cli.ripgrep, 0)} (median).`,
    );
  } finally {
    await endpoint.stop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

const [phase, root, chromaUrl, storeFile] = process.argv.slice(2);
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (phase && PHASES.includes(phase) && root && chromaUrl && storeFile) await runPhase(phase as PhaseName, root, chromaUrl, storeFile);
  // One size or several (`1000,5000`), each in its own workspace, in this one run.
  else for (const size of (process.env.MINI_CURSOR_BENCH_SCALE_FILES ?? "2000").split(",")) await benchRetrievalScale(Number(size));
}
