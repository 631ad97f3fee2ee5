import type { AgentName } from "../../src/core/index.js";
import { SOURCE_FILES, sourcePath } from "./workspace.js";

/** One scripted tool call: the same 40 calls drive both designs. */
export interface ScriptedCall {
  name: "read_file" | "list_directory" | "search_code" | "execute_command";
  args: Record<string, unknown>;
}

/** A sub-agent run as the planner would hand it out, with the tool calls its model makes. */
export interface ScriptedRun {
  agent: AgentName;
  goal: string;
  calls: ScriptedCall[];
  /** Arguments of the agent's finish tool. */
  finish: { name: string; args: Record<string, unknown> };
}

export const TASK = "Audit every module under src/ for the empty-input TODOs and check that the test runner output stays clean across runs.";

const read = (i: number): ScriptedCall => ({ name: "read_file", args: { path: sourcePath(i) } });
const run = (n: number): ScriptedCall => ({ name: "execute_command", args: { command: `node print.js ${n}` } });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
/** a0, b0, a1, b1, … then the rest of the longer list. */
function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const x = a[k];
    const y = b[k];
    if (x !== undefined) out.push(x);
    if (y !== undefined) out.push(y);
  }
  return out;
}

/**
 * 4 runs of 10 tool calls: every source file read once, 3 searches, a listing, and the 30 KB command run 11 times
 * with a different argument each time (no two calls are identical, so loop detection never fires).
 */
export const RUNS: ScriptedRun[] = [
  {
    agent: "researcher",
    goal: "Map the first modules: list the project, find the exported functions and read src/mod01.js to src/mod08.js.",
    calls: [
      { name: "list_directory", args: { path: "." } },
      { name: "search_code", args: { pattern: "export function", glob: "src/**/*.js" } },
      ...range(1, 8).map(read),
    ],
    finish: { name: "submit_findings", args: { summary: "Modules 1-8 each export several pure functions with an empty-input TODO.", findings: [] } },
  },
  {
    agent: "coder",
    goal: "Read src/mod09.js to src/mod13.js and run the test runner (node print.js N) after each to check its output.",
    calls: interleave(range(9, 13).map(read), range(1, 5).map(run)),
    finish: { name: "submit_work", args: { status: "done", summary: "Read modules 9-13; node print.js 1-5 all exit 0 with 0 failed." } },
  },
  {
    agent: "researcher",
    goal: "Find every TODO(bench) and thrown error, and read src/mod14.js to src/mod21.js.",
    calls: [
      { name: "search_code", args: { pattern: "TODO\\(bench\\)" } },
      ...range(14, 21).map(read),
      { name: "search_code", args: { pattern: "throw new Error", path: "src", maxResults: 60 } },
    ],
    finish: { name: "submit_findings", args: { summary: "Every module has one TODO(bench) per function and throws on non-object input.", findings: [] } },
  },
  {
    agent: "reviewer",
    goal: "Review the last modules (src/mod22.js to src/mod25.js) and run the test runner six more times.",
    calls: interleave(range(22, SOURCE_FILES).map(read), range(6, 11).map(run)),
    finish: { name: "submit_review", args: { decision: "approve", summary: "Modules 22-25 read; node print.js 6-11 exit 0.", problems: [] } },
  },
];

export const ALL_CALLS: ScriptedCall[] = RUNS.flatMap((r) => r.calls);
