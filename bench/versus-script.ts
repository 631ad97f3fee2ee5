import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ScriptedReply, type ScriptedRequest, type ScriptedToolCall, toolResults } from "../tests/helpers/scripted-openai-server.js";
import { roleOf } from "../tests/faces/cli/task-script.js";

/**
 * The scripted model for the "versus bare" session, answering from the request alone (which finish tool is offered,
 * how many tool results the conversation holds, which run count the planner prompt states), so mini-cursor and the
 * bare program get the same answers: 10 sub-agent runs of 9 model calls (8 tool calls of ~1 KB results, then the
 * finish tool) and 11 planner calls: 101 model calls per session.
 */

export const SUB_AGENT_RUNS = 10;
export const CALLS_PER_RUN = 9;
export const MODEL_CALLS = SUB_AGENT_RUNS * CALLS_PER_RUN + SUB_AGENT_RUNS + 1;
const AGENTS = ["researcher", "coder", "reviewer"] as const;
const MODULES = ["parser", "lexer", "resolver", "printer", "cache", "config", "cli", "server", "router", "store", "queue", "logger"];

const read = (i: number): ScriptedToolCall => ({ name: "read_file", args: { path: `src/${MODULES[i % MODULES.length] ?? "parser"}.ts` } });
const list: ScriptedToolCall = { name: "list_directory", args: { path: "src" } };
const search = (pattern: string): ScriptedToolCall => ({ name: "search_code", args: { pattern } });
const command: ScriptedToolCall = { name: "execute_command", args: { command: "true" } };

/** Eight tool calls per run; researchers read a file where the others run the harmless command `true`. */
function toolSteps(role: string): ScriptedToolCall[] {
  const middle = role === "researcher" ? read(5) : command;
  return [read(0), list, search("export function run"), read(1), middle, read(2), search("throw new"), read(3)];
}

function finishCall(role: string): ScriptedToolCall {
  if (role === "researcher") {
    return {
      name: "submit_findings",
      args: { summary: "The modules share one factory shape.", findings: [{ source: "src/parser.ts:1-30", note: "run() validates its options first." }] },
    };
  }
  if (role === "coder") return { name: "submit_work", args: { status: "done", summary: "Read the modules; `true` exits 0." } };
  return { name: "submit_review", args: { decision: "approve", summary: "Checked the modules; `true` exits 0.", problems: [] } };
}

export function versusScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    const context = req.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    const runs = Number(/sub-agent runs (\d+)/.exec(context)?.[1] ?? "0");
    if (runs >= SUB_AGENT_RUNS) {
      return {
        toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: `Finished after ${runs} sub-agent runs.` } }],
      };
    }
    const agent = AGENTS[runs % AGENTS.length] ?? "researcher";
    const step = {
      agent,
      goal: `Step ${runs + 1}: look at how the modules validate their options and report it.`,
      acceptanceCriteria: ["each claim names its file"],
    };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [step], finished: false } }] };
  }
  if (role === "unknown") return { content: "Nothing to do." };
  const steps = [...toolSteps(role), finishCall(role)];
  const next = steps[Math.min(toolResults(req).length, steps.length - 1)];
  return { toolCalls: next ? [next] : [] };
}

/** ~1 KB of TypeScript for module `name`: one `export function run` and one `throw new` line each. */
function moduleSource(name: string): string {
  const lines = [
    `// The ${name} module: validates its options, then does its work.`,
    `export interface ${name}Options {`,
    "  root: string;",
    "  verbose?: boolean;",
    "  retries?: number;",
    "}",
    "",
    `export function run(options: ${name}Options): string {`,
    "  if (!options.root) {",
    `    throw new Error("${name}: the root option is required");`,
    "  }",
    "  const retries = options.retries ?? 3;",
    "  let result = '';",
    "  for (let attempt = 0; attempt < retries; attempt++) {",
    `    result = step(options.root, attempt);`,
    "    if (result.length > 0) break;",
    "  }",
    "  if (options.verbose) console.log(result);",
    "  return result;",
    "}",
    "",
    "function step(root: string, attempt: number): string {",
    `  return attempt === 0 ? \`${name} at \${root}\` : '';`,
    "}",
  ];
  let text = `${lines.join("\n")}\n`;
  while (text.length < 1000) text += `// ${name}: padding so every file is about one kilobyte, like a small real module.\n`;
  return text;
}

/**
 * A fresh folder holding the workspace (`project/`: a package.json and twelve ~1 KB modules under src/), with room
 * beside it for files that must stay out of the workspace's searches (the bare program's checkpoint database).
 */
export function makeVersusWorkspace(): { root: string; workspace: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mc-bench-versus-")));
  const workspace = path.join(root, "project");
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, "package.json"), '{"name":"bench-demo","type":"module","scripts":{"test":"true"}}\n');
  fs.mkdirSync(path.join(workspace, "src"));
  for (const name of MODULES) fs.writeFileSync(path.join(workspace, "src", `${name}.ts`), moduleSource(name));
  return { root, workspace };
}
