import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Parser from "tree-sitter";
import bash from "tree-sitter-bash";
import { evaluateCommand, type CommandRulesContext } from "../src/safety/command-rules.js";
import { createReadFileTool } from "../src/tools/index.js";
import { median, ms, printTable, ratio } from "./stats.js";

/**
 * Benchmark: what the safety checks cost per call, against a baseline doing the same bare work in the same run:
 * a command rule check against tree-sitter parsing the line alone, and `read_file` (path confinement, credential and
 * agent-state checks, line numbering) against a plain `fs.readFile` of the same file.
 */
const LINES = [
  "cd app && npm test -- --run foo 2>&1 | tail -50",
  "git status --short && git diff --stat",
  "find . -name '*.ts' -not -path './node_modules/*' | xargs grep -n 'TODO' | head -20",
  "cat <<'EOF' > notes.md\nhello $(whoami)\nEOF",
  "bash -c 'rm -rf build && mkdir build' && npx tsc -p . --outDir build",
];

function timeEach(runs: number, fn: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

async function timeEachAsync(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

export async function benchSafetyChecks(runs = 500): Promise<void> {
  console.log("\nSafety checks per call (median; baseline in the same run)");
  const ctx: CommandRulesContext = { workspace: "/work/proj", home: os.homedir() };
  const parser = new Parser();
  parser.setLanguage(bash as unknown as Parser.Language);
  const longLine = `echo ${"word ".repeat(15_000)}`;
  // Warm both paths once: the first parse loads the grammar.
  for (const line of [...LINES, longLine]) {
    evaluateCommand(line, ctx);
    parser.parse(line);
  }
  const rows: string[][] = [];
  const rules = median(timeEach(runs, () => LINES.forEach((l) => evaluateCommand(l, ctx)))) / LINES.length;
  const parse = median(timeEach(runs, () => LINES.forEach((l) => parser.parse(l)))) / LINES.length;
  rows.push(["rule check, ordinary line", ms(rules, 3), `tree-sitter parse ${ms(parse, 3)}`, ratio(rules / parse)]);
  const longRules = median(timeEach(20, () => evaluateCommand(longLine, ctx)));
  const longParse = median(timeEach(20, () => parser.parse(longLine)));
  rows.push(["rule check, 15,000-word line", ms(longRules), `tree-sitter parse ${ms(longParse)}`, ratio(longRules / longParse)]);

  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-safety-")));
  try {
    const file = path.join(root, "src", "module.ts");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, Array.from({ length: 300 }, (_, i) => `export const value${i} = ${i}; // line ${i}`).join("\n"));
    const tool = createReadFileTool({ root });
    await tool.invoke({ path: "src/module.ts" });
    const read = median(await timeEachAsync(runs, () => tool.invoke({ path: "src/module.ts" })));
    const plain = median(await timeEachAsync(runs, () => fs.readFile(file, "utf8")));
    rows.push(["read_file (300 lines)", ms(read, 3), `fs.readFile ${ms(plain, 3)}`, ratio(read / plain)]);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
  printTable("", ["check", "ours", "baseline", "ratio"], rows);
}
