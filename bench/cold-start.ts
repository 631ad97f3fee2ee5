import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openSessionDatabase } from "../src/sessions/database.js";
import { median, ms, p95, printTable, ratio } from "./stats.js";

/**
 * Benchmark 3: wall time of fresh CLI processes that should start fast (`--help`, listing sessions, the help of
 * `diff`/`undo`/`memory list`), each against bare `node -e 0` timed alternately in the same run.
 * MINI_CURSOR_BENCH_CLI=<path to main.js> times another build (e.g. a worktree of an older commit) the same way.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function timeSpawn(args: readonly string[], env?: Record<string, string>): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const elapsed = performance.now() - start;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${child.status}: ${child.stderr}`);
  return elapsed;
}

/** A workspace with `count` finished sessions in its session index, as `mini-cursor sessions` lists them. */
function workspaceWithSessions(count: number): string {
  const workspace = mkdtempSync(path.join(os.tmpdir(), "mc-bench-sessions-"));
  let now = Date.UTC(2026, 0, 1);
  const index = openSessionDatabase(workspace, { now: () => (now += 1000) });
  try {
    for (let i = 0; i < count; i++) {
      const id = `bench-${String(i).padStart(4, "0")}`;
      index.sessions.create({ id, task: `benchmark task ${i}: rename a helper across the project`, workspace, model: "scripted", options: "{}" });
      index.sessions.update(id, { status: "done", inputTokens: 1200 + i, outputTokens: 300 + i, costUsd: 0.01 });
    }
  } finally {
    index.close();
  }
  return workspace;
}

interface Case {
  label: string;
  args: string[];
  env?: Record<string, string>;
}

/** Modules a process pays for when main.js imports them eagerly; `help.js` is all that --help needs. */
const IMPORTS = [
  "./dist/cli/help.js",
  "zod",
  "./dist/core/index.js",
  "@langchain/core/messages",
  "@langchain/langgraph",
  "@langchain/openai",
  "better-sqlite3",
  "@langchain/langgraph-checkpoint-sqlite",
  "./dist/graph/build-graph.js",
] as const;

export function benchColdStart(runs: number, importRuns: number): void {
  const cli = process.env.MINI_CURSOR_BENCH_CLI ?? path.join(repoRoot, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first (npm run bench does)`);
  const workspace = workspaceWithSessions(50);
  const cases: Case[] = [
    { label: "--help", args: [cli, "--help"] },
    { label: "sessions (50 sessions)", args: [cli, "sessions", "--workspace", workspace] },
    { label: "diff --help", args: [cli, "diff", "--help"] },
    { label: "undo --help", args: [cli, "undo", "--help"] },
    { label: "memory list --help", args: [cli, "memory", "list", "--help"] },
    { label: "memory list (MINI_CURSOR_MEMORY=off)", args: [cli, "memory", "list", "--workspace", workspace], env: { MINI_CURSOR_MEMORY: "off" } },
  ];
  const bareArgs = ["-e", "0"];
  try {
    // Warm the OS file cache, then alternate bare node with each command so drift hits both alike.
    for (const c of cases) {
      timeSpawn(bareArgs);
      timeSpawn(c.args, c.env);
    }
    const bare: number[] = [];
    const timings = cases.map(() => [] as number[]);
    for (let i = 0; i < runs; i++) {
      cases.forEach((c, n) => {
        bare.push(timeSpawn(bareArgs));
        timings[n]?.push(timeSpawn(c.args, c.env));
      });
    }
    const row = (label: string, t: readonly number[]) => [label, ms(median(t), 1), ms(p95(t), 1), ms(Math.min(...t), 1), ms(Math.max(...t), 1)];
    printTable(
      `3. CLI cold start — ${runs} fresh processes per command (after a warm-up run), each after a bare node run; wall time of spawn to exit`,
      ["command", "median", "p95", "min", "max", "÷ node -e 0 (median)"],
      [
        [...row("node -e 0", bare), "1.00×"],
        ...cases.map((c, n) => {
          const t = timings[n] ?? [];
          return [...row(`mini-cursor ${c.label}`, t), ratio(median(t) / median(bare))];
        }),
      ],
    );
    console.log("   Target (issue 11): each at most 1.5× node -e 0. Listing sessions reads SQLite rows without importing LangGraph.");
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }

  const timeImport = (code: string): number => {
    const args = ["--input-type=module", "-e", code];
    timeSpawn(args);
    return median(Array.from({ length: importRuns }, () => timeSpawn(args)));
  };
  const esmBaseline = timeImport("0");
  const importRows = IMPORTS.map((specifier) => {
    const wall = timeImport(`await import(${JSON.stringify(specifier)})`);
    return [specifier, ms(wall, 1), ms(wall - esmBaseline, 1)];
  });
  printTable(
    `   What a fresh process pays to import one module alone (${importRuns} runs each; imports share dependencies, so these do not add up)`,
    ["import", "median wall", "minus ESM no-op"],
    [["(ESM no-op: node --input-type=module -e 0)", ms(esmBaseline, 1), "-"], ...importRows],
  );
}
