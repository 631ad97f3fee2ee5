import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { rgPath } from "@vscode/ripgrep";
import { credentialSearchExclusions } from "../src/safety/credential-files.js";
import { ALWAYS_SKIPPED_NAMES } from "../src/platform/gitignore-filter.js";
import { createSearchCodeTool } from "../src/tools/index.js";
import { median, ms, printTable, quantile, ratio } from "./stats.js";

/**
 * Benchmark: `search_code` (ripgrep plus credential filtering and the re-read that checks each reported line is
 * really in the workspace file) against spawning the same ripgrep binary with the same flags and reading its JSON
 * output up to the same cap, alternating in one run.
 */
const FILES = 1000;
const LINES_PER_FILE = 120;
/** Files where the "many" pattern is on every other line: 20 x 60 = 1,200 matches, above the 1,000 cap. */
const HOT_FILES = 20;
const MAX_RESULTS = 1000;

function fileText(i: number): string {
  const hot = i % (FILES / HOT_FILES) === 0;
  const lines: string[] = [`// module ${i}`, `import { helper${i % 7} } from "../shared/helper-${i % 7}.js";`];
  for (let n = 2; n < LINES_PER_FILE; n++) {
    if (hot && n % 2 === 0) lines.push(`  logEvent("hotPath", { module: ${i}, step: ${n} }); // traced`);
    else if (i % 250 === 3 && n === 40) lines.push(`export function rareNeedle${i}(input: string): string { return input; }`);
    else lines.push(`  const value${n} = compute(${n}, "text for line ${n} of module ${i}");`);
  }
  return `${lines.join("\n")}\n`;
}

async function buildWorkspace(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-search-")));
  await fs.writeFile(path.join(root, ".gitignore"), "dist/\n");
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, "src", `area-${Math.floor(i / 50)}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `module-${i}.ts`), fileText(i));
  }
  return root;
}

/** The flags search_code passes for a whole-workspace search with smart case and no globs. */
function ripgrepArgs(root: string, pattern: string): string[] {
  return [
    "--json",
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--sort",
    "path",
    "--smart-case",
    ...[...ALWAYS_SKIPPED_NAMES].flatMap((name) => ["--glob", `!${name}`]),
    ...credentialSearchExclusions(root).flatMap((g) => ["--glob", g]),
    "--regexp",
    pattern,
    "--",
    ".",
  ];
}

/** Baseline: ripgrep alone, its JSON lines parsed and counted, stopped at the cap like search_code stops it. */
function bareRipgrep(root: string, pattern: string, cap: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ripgrepArgs(root, pattern), { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    let count = 0;
    let stopped = false;
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (stopped) return;
      const message = JSON.parse(line) as { type?: string };
      if (message.type !== "match") return;
      if (count >= cap) {
        stopped = true;
        child.kill("SIGTERM");
        return;
      }
      count += 1;
    });
    child.on("error", reject);
    child.on("close", () => resolve(count));
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchSearchCode(runs = 15): Promise<void> {
  console.log(`\nsearch_code vs ripgrep with the same flags (${FILES} files; median of ${runs}, alternating)`);
  const root = await buildWorkspace();
  try {
    const tool = createSearchCodeTool({ root });
    const cases = [
      { name: "few matches", pattern: "rareNeedle\\d+" },
      { name: `many matches (cap ${MAX_RESULTS})`, pattern: 'logEvent\\("hotPath"' },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      // Warm both once (page cache, first spawn). search_code checks every line ripgrep reports, then shows as
      // many as fit its output limit: it must show some and at most what ripgrep found.
      const reply: unknown = await tool.invoke({ pattern: c.pattern, maxResults: MAX_RESULTS });
      const result = typeof reply === "string" ? reply : JSON.stringify(reply);
      const found = await bareRipgrep(root, c.pattern, MAX_RESULTS);
      const shown = Number(/^(\d+) matching line/.exec(result)?.[1] ?? 0);
      if (shown === 0 || shown > found) throw new Error(`search_code and ripgrep disagree for ${c.pattern}: ${result.slice(0, 200)} vs ${found}`);
      const ours: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < runs; i++) {
        ours.push(await timed(() => tool.invoke({ pattern: c.pattern, maxResults: MAX_RESULTS })));
        bare.push(await timed(() => bareRipgrep(root, c.pattern, MAX_RESULTS)));
      }
      const spread = (s: number[]) => `${ms(quantile(s, 0.25), 1)}–${ms(quantile(s, 0.75), 1)}`;
      rows.push([
        `${c.name}: ${found} lines`,
        ms(median(ours), 1),
        spread(ours),
        `ripgrep ${ms(median(bare), 1)}`,
        spread(bare),
        ratio(median(ours) / median(bare)),
      ]);
    }
    printTable("", ["search", "search_code", "p25–p75", "baseline", "p25–p75", "ratio"], rows);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

// `node --import tsx bench/search-code.ts` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1] ?? ""}`) await benchSearchCode();
