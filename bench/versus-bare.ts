import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { startScriptedOpenAIServer, type ScriptedRequest } from "../tests/helpers/scripted-openai-server.js";
import { median, printTable, ratio } from "./stats.js";
import { makeVersusWorkspace, MODEL_CALLS, versusScript } from "./versus-script.js";

/**
 * Benchmark "versus bare" (issue 11): one 101-call session (10 sub-agent runs × 9 calls + 11 planner calls) run by
 * the real CLI and by a bare LangGraph program of the same shape (bench/bare/), each as a fresh process, alternating,
 * against one scripted OpenAI-compatible server. Both are preloaded with bench/bare/exit-usage.ts, which reports
 * CPU time, peak RSS and page faults on exit (mini-cursor's launcher helper included: see there).
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(repoRoot, "bench", "out", "bare");
/** The CLI under test: this checkout's build, or MINI_CURSOR_BENCH_CLI (another build, for an A/B in one invocation). */
const cliPath = (): string => process.env.MINI_CURSOR_BENCH_CLI ?? path.join(repoRoot, "dist", "cli", "main.js");

/** Compiles the bare program to plain JS (bench/out/bare), so it starts without tsx. */
export async function buildBare(): Promise<void> {
  const dir = path.join(repoRoot, "bench", "bare");
  const entryPoints = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f));
  await build({ entryPoints, outdir: outDir, format: "esm", platform: "node", target: "node20", logLevel: "warning" });
}

/**
 * "mini-cursor": memory on as a user has it, the local Chroma kept up between sessions (MINI_CURSOR_CHROMA_IDLE);
 * "(Chroma per session)": each session starts and stops its own (MINI_CURSOR_CHROMA_IDLE=0, a data dir of its own).
 */
export type Program = "mini-cursor" | "mini-cursor (Chroma per session)" | "mini-cursor (memory off)" | "bare LangGraph";

export interface RunFigures {
  wallMs: number;
  /** User + system CPU of the program's own process and of its children still running at exit (the launcher helper). */
  cpuMs: number;
  /** CPU of the child processes it waited for (commands, git, ripgrep...). */
  childrenCpuMs: number;
  firstRequestMs: number;
  maxRssMb: number;
  /** Minor page faults of the program's own process (each costs tens of µs in a VM with costly first touches). */
  minorFaults: number;
  modelCalls: number;
  /** The first planner request carried recalled memories (mini-cursor with memory on; the bare program has none). */
  firstPlanRecalled: boolean;
}

export interface Marker {
  /** Set by the server when a run's first chat-completions request arrives (performance.now()). */
  firstAt?: number;
  /** That first request carried memories recalled from earlier sessions. */
  firstRecalled?: boolean;
  /** The same moment and the latest request's, in µs of the monotonic clock V8's profiler uses (for --cpu-prof). */
  firstAtUs?: number;
  lastAtUs?: number;
}

/** Command line of a program: argv for `node`, after the preload. */
function programArgs(program: Program, root: string, workspace: string, baseUrl: string): string[] {
  const task = "Look at how the modules validate their options and report it.";
  if (program === "bare LangGraph")
    return [
      path.join(outDir, "main.js"),
      "--workspace",
      workspace,
      "--db",
      path.join(root, "bare-checkpoints.db"),
      "--base-url",
      baseUrl,
      "--model",
      "scripted-model",
      task,
    ];
  return [
    cliPath(),
    "run",
    task,
    "--workspace",
    workspace,
    "--base-url",
    baseUrl,
    "--model",
    "scripted-model",
    "--approval",
    "auto",
    "--json",
    "--max-steps",
    "30",
    "--max-revisions",
    "30",
  ];
}

export interface RunOptions {
  baseUrl: string;
  marker: Marker;
  requests: ScriptedRequest[];
  /** Where mini-cursor's local Chroma keeps its data (one folder for the whole bench, as a user has one). */
  dataDir: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
}

export async function runProgram(program: Program, o: RunOptions): Promise<RunFigures> {
  const { root, workspace } = makeVersusWorkspace();
  const usageFile = path.join(root, "usage.json");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    OPENAI_API_KEY: "scripted",
    BENCH_USAGE_FILE: usageFile,
    MINI_CURSOR_DATA_DIR: program === "mini-cursor (Chroma per session)" ? path.join(o.dataDir, "per-session") : o.dataDir,
    ...(program === "mini-cursor (memory off)" ? { MINI_CURSOR_MEMORY: "off" } : {}),
    ...(program === "mini-cursor (Chroma per session)" ? { MINI_CURSOR_CHROMA_IDLE: "0" } : {}),
    // Variables of the bench's own environment to hand on to both programs (names, comma-separated), e.g.
    // NODE_EXTRA_CA_CERTS to measure a machine that sets it; by default the programs get only the above.
    ...Object.fromEntries(
      (process.env.MINI_CURSOR_BENCH_PASS_ENV ?? "")
        .split(",")
        .filter((name) => name && process.env[name] !== undefined)
        .map((name) => [name, process.env[name]]),
    ),
  };
  const before = o.requests.length;
  o.marker.firstAt = o.marker.firstAtUs = o.marker.lastAtUs = o.marker.firstRecalled = undefined;
  try {
    const args = [...(o.nodeFlags ?? []), "--import", path.join(outDir, "exit-usage.js"), ...programArgs(program, root, workspace, o.baseUrl)];
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    const wallMs = performance.now() - start;
    const modelCalls = o.requests.length - before;
    const tail = out.trim().split("\n").slice(-5).join("\n");
    if (code !== 0) throw new Error(`${program} exited with ${code}:\n${tail}`);
    checkDone(program, out, tail);
    if (modelCalls !== MODEL_CALLS) throw new Error(`${program} made ${modelCalls} model calls, expected ${MODEL_CALLS}:\n${tail}`);
    if (o.marker.firstAt === undefined) throw new Error(`${program}: no model request recorded`);
    const usage = JSON.parse(fs.readFileSync(usageFile, "utf8")) as {
      userMs: number;
      systemMs: number;
      maxRssKb: number;
      childrenCpuMs: number;
      minorFaults: number;
    };
    return {
      wallMs,
      cpuMs: usage.userMs + usage.systemMs,
      childrenCpuMs: usage.childrenCpuMs,
      firstRequestMs: o.marker.firstAt - start,
      maxRssMb: usage.maxRssKb / 1024,
      minorFaults: usage.minorFaults,
      modelCalls,
      firstPlanRecalled: o.marker.firstRecalled === true,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Fails loudly unless the session ended "done": the CLI's last JSON event, the bare program's status line. */
function checkDone(program: Program, out: string, tail: string): void {
  if (program === "bare LangGraph") {
    if (!out.includes('"status":"done"')) throw new Error(`bare program did not finish "done":\n${tail}`);
    return;
  }
  const events = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const done = events.some((e) => e["type"] === "session_finished" && e["status"] === "done");
  if (!done) throw new Error(`${program} did not end "done":\n${tail}`);
}

export async function startVersusServer() {
  const marker: Marker = {};
  const server = await startScriptedOpenAIServer((req) => {
    if (marker.firstAt === undefined) {
      marker.firstAt = performance.now();
      marker.firstRecalled = req.messages.some((m) => m.content.includes("Memories from earlier sessions"));
    }
    marker.lastAtUs = Number(process.hrtime.bigint() / 1000n);
    marker.firstAtUs ??= marker.lastAtUs;
    return versusScript(req);
  });
  return { server, marker };
}

const spread = (values: readonly number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/**
 * Runs the section: MINI_CURSOR_BENCH_VERSUS_REPS sets the repetitions (default 5, after one warm-up of each
 * program); MINI_CURSOR_BENCH_VERSUS_MEMORY_OFF=0 leaves out the memory-off row.
 */
export async function benchVersusBare(
  reps = Number(process.env.MINI_CURSOR_BENCH_VERSUS_REPS ?? "5"),
  withMemoryOff = process.env.MINI_CURSOR_BENCH_VERSUS_MEMORY_OFF !== "0",
): Promise<void> {
  const started = performance.now();
  await buildBare();
  const { server, marker } = await startVersusServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-bench-versus-data-"));
  const programs: Program[] = [
    "bare LangGraph",
    "mini-cursor",
    "mini-cursor (Chroma per session)",
    ...(withMemoryOff ? (["mini-cursor (memory off)"] as const) : []),
  ];
  const results = new Map<Program, RunFigures[]>(programs.map((p) => [p, []]));
  const o: RunOptions = { baseUrl: server.baseUrl, marker, requests: server.requests, dataDir };
  try {
    // One warm-up (the file cache, which the bare program's modules share, and Chroma's first collection in each data
    // folder; the kept-up server of "mini-cursor" starts here, as a user's first session of the day starts it), then
    // alternate. Deleting the data folder at the end ends that server (server-command.ts).
    await runProgram("mini-cursor", o);
    await runProgram("mini-cursor (Chroma per session)", o);
    for (let i = 0; i < reps; i++) for (const p of programs) results.get(p)?.push(await runProgram(p, o));
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printVersus(results, reps);
  console.log(`   Section time: ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

function printVersus(results: Map<Program, RunFigures[]>, reps: number): void {
  const bare = results.get("bare LangGraph") ?? [];
  const figures: { label: string; of: (r: RunFigures) => number; unit: string; digits: number; target?: number }[] = [
    { label: "wall time of the session", of: (r) => r.wallMs, unit: "ms", digits: 0, target: 1.2 },
    { label: "CPU per model call (own processes)", of: (r) => r.cpuMs / r.modelCalls, unit: "ms", digits: 2, target: 1.3 },
    { label: "CPU per model call (+ waited-for children)", of: (r) => (r.cpuMs + r.childrenCpuMs) / r.modelCalls, unit: "ms", digits: 2 },
    { label: "spawn to first model request", of: (r) => r.firstRequestMs, unit: "ms", digits: 0, target: 1.2 },
    { label: "peak RSS (+ helper's private memory)", of: (r) => r.maxRssMb, unit: "MB", digits: 0 },
    { label: "minor page faults", of: (r) => r.minorFaults, unit: "", digits: 0 },
  ];
  const rows: string[][] = [];
  for (const f of figures) {
    const base = median(bare.map(f.of));
    for (const [program, runs] of results) {
      const values = runs.map(f.of);
      const m = median(values);
      const versus = program === "bare LangGraph" ? "1.00×" : ratio(m / base);
      const target = program === "bare LangGraph" || f.target === undefined ? "" : `≤ ${f.target.toFixed(1)}× ${m / base <= f.target ? "met" : "MISSED"}`;
      rows.push([`${f.label}: ${program}`, `${m.toFixed(f.digits)} ${f.unit}`, `${spread(values, f.digits)} ${f.unit}`, versus, target]);
    }
  }
  printTable(
    `5. Versus a bare LangGraph program: one ${MODEL_CALLS}-call session (10 sub-agent runs × 9 calls + 11 planner calls, ~1 KB tool results), fresh processes, alternating, ${reps} runs each after a warm-up`,
    ["figure: program", "median", "min–max", "÷ bare", "target (issue 11)"],
    rows,
  );
  console.log("   Same scripted server and answers for both; the bare program (bench/bare/) has no safety layers, memory, undo or budgets.");
  console.log("   Own processes: the program's, plus mini-cursor's launcher helper (which spawns its tools' commands); page faults are the program's own.");
  console.log("   mini-cursor keeps memory on as a user has it: its local Chroma stays up between sessions (MINI_CURSOR_CHROMA_IDLE, 300 s), so");
  console.log('   only the warm-up started it; "Chroma per session" starts and stops one in every session (=0); memory off shows what memory costs.');
  // The first request of a session with memory on waits for the recall (at most MINI_CURSOR_MEMORY_WAIT, 300 ms): its
  // row above is the cost, warm (server kept up) and cold (Chroma per session); this is what it buys.
  const recalled = [...results]
    .filter(([program]) => program !== "bare LangGraph" && program !== "mini-cursor (memory off)")
    .map(([program, runs]) => `${program} ${runs.filter((r) => r.firstPlanRecalled).length} of ${runs.length}`);
  console.log(`   First plans made with recalled memories (within MINI_CURSOR_MEMORY_WAIT): ${recalled.join("; ")}.`);
}
