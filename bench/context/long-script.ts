import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ScriptedCall, ScriptedRun } from "./script.js";
import { sourcePath, sourceText } from "./workspace.js";

/**
 * The `long` scenario of the prompt-cache bench (issue 46): a planner that plans, re-plans and finishes (4 calls), a
 * researcher run of 14 tool calls, a coder run of 24 and a short review (46 model requests with the finish calls), on a temp project of 22 source files of 4–10 KB and a `report.js`
 * printing 15–20 KB. At the default budget (32,000 tokens) the coder's reads and command outputs outgrow the budget
 * about a third of the way into its run, so the context budget has to clear old tool output.
 */
export const LONG_FILES = 22;
const RESEARCHER_READS = 10;

export const LONG_TASK = "Audit the report modules for empty-input TODOs and check that the report runner's output stays clean for every suite.";

/** 4–10 KB, cut at a function boundary from the context bench's generated module (so the JavaScript stays whole). */
export function longSourceText(i: number): string {
  const target = 4_000 + ((i * 2_473) % 6_000);
  const full = sourceText(i);
  if (full.length <= target) return full;
  const cut = full.lastIndexOf("\n/**", target);
  return cut > 0 ? `${full.slice(0, cut)}\n` : full;
}

/** 15–20 KB of test-runner-like output, different for every argument (so no two runs are equal for the loop guard). */
const REPORT_JS = `const suite = Number(process.argv[2] ?? "1");
const target = 15000 + ((suite * 1237) % 5000);
let out = "";
for (let i = 0; out.length < target; i++) {
  const mod = String(((i * 5 + suite) % ${LONG_FILES}) + 1).padStart(2, "0");
  out += "[suite " + suite + "] ok " + String(i + 1).padStart(4, "0") + " src/mod" + mod + ".js > case " + ((i * 29 + suite * 13) % 991) + " passed in " + ((i * 11 + suite) % 80) + " ms\\n";
}
process.stdout.write(out + "[suite " + suite + "] " + out.split("\\n").length + " cases, 0 failed\\n");
`;

export async function makeLongWorkspace(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-bench-cache-")));
  await fs.mkdir(path.join(root, "src"));
  await fs.writeFile(path.join(root, "package.json"), '{"name":"bench-cache","type":"module","scripts":{"test":"node report.js 1"}}\n');
  await fs.writeFile(path.join(root, "report.js"), REPORT_JS);
  for (let i = 1; i <= LONG_FILES; i++) await fs.writeFile(path.join(root, sourcePath(i)), longSourceText(i));
  return root;
}

const read = (i: number): ScriptedCall => ({ name: "read_file", args: { path: sourcePath(i) } });
const report = (suite: number): ScriptedCall => ({ name: "execute_command", args: { command: `node report.js ${suite}` } });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

/** The coder alternates a read with a run of the report: 12 of each. */
const CODER_READS = range(RESEARCHER_READS + 1, RESEARCHER_READS + 12);
const coderCalls = CODER_READS.flatMap((file, k) => [read(file), report(k + 1)]);

export const LONG_RUNS: ScriptedRun[] = [
  {
    agent: "researcher",
    goal: "Map the project: list it, find the exported functions, the TODOs and the thrown errors, and read src/mod01.js to src/mod10.js.",
    calls: [
      { name: "list_directory", args: { path: "." } },
      { name: "search_code", args: { pattern: "export function", glob: "src/**/*.js" } },
      ...range(1, RESEARCHER_READS).map(read),
      { name: "search_code", args: { pattern: "TODO\\(bench\\)", maxResults: 60 } },
      { name: "search_code", args: { pattern: "throw new Error", path: "src", maxResults: 40 } },
    ],
    finish: { name: "submit_findings", args: { summary: "Modules 1-10 each export pure functions with an empty-input TODO each.", findings: [] } },
  },
  {
    agent: "coder",
    goal: "Read src/mod11.js to src/mod22.js and run the report runner (node report.js N) for suites 1-12, one after each read.",
    calls: coderCalls,
    finish: { name: "submit_work", args: { status: "done", summary: "Read modules 11-22; node report.js 1-12 all exit 0 with 0 failed." } },
  },
  // A finished coder step is reviewed before the session may finish (src/graph/nodes/planner): planned up front.
  {
    agent: "reviewer",
    goal: "Review the audit: run the report runner for suite 13 and check it stays clean.",
    calls: [report(13)],
    finish: { name: "submit_review", args: { decision: "approve", summary: "node report.js 13 exits 0 with 0 failed.", problems: [] } },
  },
];
