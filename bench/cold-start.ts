import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, ms, p95, printTable, ratio } from "./stats.js";

/** Benchmark 3: wall time of `node dist/cli/main.js --help` in a fresh process, against bare `node -e 0`. */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function timeSpawn(args: readonly string[]): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const elapsed = performance.now() - start;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${child.status}: ${child.stderr}`);
  return elapsed;
}

/** Modules a process pays for when main.js imports them eagerly; `help.js` is all that --help needs. */
const IMPORTS = [
  "./dist/cli/help.js",
  "zod",
  "@langchain/core/messages",
  "@langchain/langgraph",
  "@langchain/openai",
  "better-sqlite3",
  "@langchain/langgraph-checkpoint-sqlite",
  "./dist/graph/build-graph.js",
] as const;

export function benchColdStart(runs: number, importRuns: number): void {
  const cli = path.join(repoRoot, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first (npm run bench does)`);
  const cliArgs = [cli, "--help"];
  const bareArgs = ["-e", "0"];
  // Warm the OS file cache, then alternate the two so drift hits both alike.
  for (let i = 0; i < 2; i++) {
    timeSpawn(bareArgs);
    timeSpawn(cliArgs);
  }
  const bare: number[] = [];
  const help: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(timeSpawn(bareArgs));
    help.push(timeSpawn(cliArgs));
  }
  printTable(
    `3. CLI cold start — ${runs} fresh processes each (after 2 warm-up runs), wall time of spawn to exit`,
    ["command", "median", "p95", "min", "max"],
    [
      ["node -e 0", ms(median(bare), 1), ms(p95(bare), 1), ms(Math.min(...bare), 1), ms(Math.max(...bare), 1)],
      ["node dist/cli/main.js --help", ms(median(help), 1), ms(p95(help), 1), ms(Math.min(...help), 1), ms(Math.max(...help), 1)],
    ],
  );
  console.log(
    `   --help ÷ bare node: median ${ratio(median(help) / median(bare))}, p95 ${ratio(p95(help) / p95(bare))}; the CLI adds ${ms(median(help) - median(bare), 1)} (median) of module loading and start-up.`,
  );

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
