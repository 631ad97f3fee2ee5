import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeCollectionName } from "../../../src/memory/retrieval/code-collection.js";
import { runCli } from "../../faces/cli/cli-process.js";
import { roleOf } from "../../faces/cli/task-script.js";
import { startTestChroma, type TestChroma } from "../../helpers/chroma.js";
import { freePort } from "../../helpers/free-port.js";
import {
  startScriptedOpenAIServer,
  toolResults,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
  userText,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { moduleTrace } from "../../helpers/module-trace.js";

const TIMING = `/**\n * Waits until the user stops typing before running the callback: each new call resets the timer.\n */\nexport function debounce(fn, wait) {\n  let timer;\n  return () => {\n    clearTimeout(timer);\n    timer = setTimeout(fn, wait);\n  };\n}\n`;
const TASK = "Research where we postpone the callback until the user stops typing";
const QUERY = "postpone the callback until the user stops typing";

let server: ScriptedServer;
let chroma: TestChroma;
let ws: TempWorkspace;
let dataDir = "";

const RETRY_TASK = "Add a retry helper, then research where failed requests are retried";
const RETRY_SOURCE =
  "/** Tries a failed network request again with exponential backoff. */\nexport async function withBackoff(send, attempts) {\n  for (let i = 0; ; i++) {\n    try { return await send(); } catch (e) { if (i + 1 >= attempts) throw e; }\n  }\n}\n";

/** Coder writes a file, then the researcher searches until the refreshed index has it (or gives up). */
function retryScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  if (role === "planner") {
    if (text.includes("There is no plan yet")) {
      return {
        toolCalls: [
          {
            name: "update_plan",
            args: {
              remainingSteps: [
                { agent: "coder", goal: "Write src/net.js", acceptanceCriteria: [] },
                { agent: "researcher", goal: "Find the retry code", acceptanceCriteria: [] },
              ],
              finished: false,
            },
          },
        ],
      };
    }
    if (/Latest report \(s\d+, (researcher|reviewer)/.test(text))
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Done." } }] };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "researcher", goal: "Find the retry code" }], finished: false } }] };
  }
  if (role === "coder") {
    if (toolResults(req).length === 0) return { toolCalls: [{ name: "write_file", args: { path: "src/net.js", content: RETRY_SOURCE } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "wrote src/net.js" } }] };
  }
  if (role === "researcher") {
    const results = toolResults(req).filter((r) => r.name === "codebase_search");
    if (results.length < 15 && !(results.at(-1)?.content ?? "").includes("src/net.js")) {
      return { toolCalls: [{ name: "codebase_search", args: { query: "where are failed requests tried again", limit: 3 + results.length } }] };
    }
    return { toolCalls: [{ name: "submit_findings", args: { summary: "found", findings: [{ source: "src/net.js", note: "withBackoff" }] } }] };
  }
  // The session adds a final review of the coder's change.
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "fine" } }] };
  return { content: "nothing to do" };
}

/** The planner sends one researcher step; the researcher asks codebase_search until the index is ready, then reports. */
function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return {
        toolCalls: [
          { name: "update_plan", args: { remainingSteps: [{ agent: "researcher", goal: "Find the code", acceptanceCriteria: [] }], finished: false } },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Found it." } }] };
  }
  if (role === "researcher") {
    const results = toolResults(req).filter((r) => r.name === "codebase_search");
    const last = results.at(-1)?.content ?? "";
    if (results.length === 0 || (last.includes("still being built") && results.length < 15)) {
      // A different limit each time: the loop guard stops a run that repeats a call with the same arguments.
      return { toolCalls: [{ name: "codebase_search", args: { query: QUERY, limit: 5 + results.length } }] };
    }
    return { toolCalls: [{ name: "submit_findings", args: { summary: "found", findings: [{ source: "src/timing.js", note: "debounce" }] } }] };
  }
  return { content: "nothing to do" };
}

beforeEach(async () => {
  chroma = await startTestChroma();
  server = await startScriptedOpenAIServer(async (req) => {
    // A researcher retrying while the index builds waits a little, as a real model would take time anyway.
    if (roleOf(req) === "researcher") await new Promise((resolve) => setTimeout(resolve, 400));
    // The coder writes only once the session's first index update (of the prebuilt index) is surely over, so the new
    // file can reach the index only through the refresh after the coder's step.
    if (roleOf(req) === "coder" && toolResults(req).length === 0) await new Promise((resolve) => setTimeout(resolve, 1_500));
    return userText(req).includes(RETRY_TASK) ? retryScript(req) : script(req);
  });
  ws = await makeTempWorkspace({
    "src/timing.js": TIMING,
    "src/version.js": "/** Reads a semantic version string into numbers. */\nexport function parseVersion(text) {\n  return text.split('.').map(Number);\n}\n",
    "src/colors.js": "/** Mixes two RGB colors. */\nexport function blend(a, b, t) {\n  return a.map((v, i) => v * (1 - t) + b[i] * t);\n}\n",
  });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-index-data-"));
});
afterEach(async () => {
  await server.close();
  await chroma.stop();
  await ws.cleanup();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  OPENAI_BASE_URL: server.baseUrl,
  MINI_CURSOR_MODEL: "scripted",
  MINI_CURSOR_INDEX: "on",
  CHROMA_URL: chroma.url,
  MINI_CURSOR_DATA_DIR: dataDir,
});

describe("codebase retrieval through the built CLI (real Chroma, scripted model)", () => {
  it("index build, search --json, status and clear", async () => {
    const build = await runCli(["index", "build", "--json"], { cwd: ws.root, env: env() });
    expect(build.code).toBe(0);
    expect(JSON.parse(build.stdout)).toMatchObject({ workspace: ws.root, files: 3, changed: 3, partial: false });

    const search = await runCli(["index", "search", QUERY, "--json", "--limit", "2"], { cwd: ws.root, env: env() });
    expect(search.code).toBe(0);
    const hits = JSON.parse(search.stdout) as { path: string; startLine: number; endLine: number; symbol: string; score: number }[];
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({ path: "src/timing.js", startLine: 1, endLine: 10, symbol: "debounce" });
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1);

    const status = await runCli(["index", "status", "--json"], { cwd: ws.root, env: env() });
    expect(JSON.parse(status.stdout)).toMatchObject({ files: 3, embedder: "local-hash-v1" });

    // A search ranks while its update looks for changes: a file written since the build is in the answer (the
    // answer ranked before the update is dropped), and a search that re-chunks nothing never loads tree-sitter.
    const preload = path.join(dataDir, "record-required.cjs");
    await fs.writeFile(
      preload,
      'process.on("exit", () => require("node:fs").writeFileSync(process.env.MC_REQUIRED, Object.keys(require.cache).join("\\n")));\n',
    );
    const required = path.join(dataDir, "required.txt");
    const modules = moduleTrace(dataDir, "index-search");
    const traced = { ...env(), ...modules.env, NODE_OPTIONS: `${modules.env.NODE_OPTIONS} --require ${preload}`, MC_REQUIRED: required };
    await fs.writeFile(
      path.join(ws.root, "src/queue.js"),
      "/** Drains the print queue one job at a time. */\nexport function drainPrintQueue(q) {\n  while (q.length) q.shift()();\n}\n",
    );
    const changed = await runCli(["index", "search", "drain the print queue", "--json", "--limit", "1"], { cwd: ws.root, env: traced });
    expect(JSON.parse(changed.stdout)).toMatchObject([{ path: "src/queue.js", symbol: "drainPrintQueue" }]);
    expect(await fs.readFile(required, "utf8")).toMatch(/node_modules\/tree-sitter\//);
    const unchanged = await runCli(["index", "search", "drain the print queue", "--json", "--limit", "1"], { cwd: ws.root, env: traced });
    expect(JSON.parse(unchanged.stdout)).toMatchObject([{ path: "src/queue.js" }]);
    expect(await fs.readFile(required, "utf8")).not.toMatch(/tree-sitter/);
    // Nor the config file's schema or the core's (zod): an environment variable or two is all a search reads.
    expect(modules.modules().some((m) => m.endsWith("/src/memory/retrieval/code-index.ts"))).toBe(true);
    expect(modules.modules().filter((m) => /\/node_modules\/zod\//.test(m))).toEqual([]);
    // The index's store (SQLite, derived from the collection) lives in the data dir, and goes with the index.
    const store = path.join(dataDir, "code-index", `${codeCollectionName(ws.root)}.sqlite`);
    expect(existsSync(store)).toBe(true);
    const cleared = await runCli(["index", "clear"], { cwd: ws.root, env: env() });
    expect(cleared.stdout).toContain("Cleared the index");
    expect(existsSync(store)).toBe(false);
    const after = await runCli(["index", "status"], { cwd: ws.root, env: env() });
    expect(after.stdout).toContain("No index for");

    const bad = await runCli(["index", "search"], { cwd: ws.root, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    // Chroma not there: one line, exit 1, nothing built.
    const port = await freePort();
    const unreachable = await runCli(["index", "build"], { cwd: ws.root, env: { ...env(), CHROMA_URL: `http://127.0.0.1:${port}` } });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^mini-cursor: the index is unavailable: Chroma at http:\/\/127\.0\.0\.1:\d+ is unreachable/),
    ]);
  });

  it("gives the researcher's codebase_search hits, and the planner the top files", async () => {
    const run = await runCli(["run", TASK], { cwd: ws.root, env: env() });
    expect(run.code).toBe(0);
    const researcher = server.requests.filter((r) => roleOf(r) === "researcher");
    const results = toolResults(researcher.at(-1) ?? ({ messages: [] } as unknown as ScriptedRequest)).filter((r) => r.name === "codebase_search");
    const answer = results.at(-1)?.content ?? "";
    expect(answer).toContain("src/timing.js:1-10 debounce");
    expect(answer.indexOf("src/timing.js")).toBeLessThan(answer.indexOf("src/version.js") === -1 ? Infinity : answer.indexOf("src/version.js"));
    // The planner's turn after the research step sees the index's top files for the task.
    const lastPlanner = server.requests.filter((r) => roleOf(r) === "planner").at(-1);
    expect(lastPlanner && userText(lastPlanner)).toContain("- src/timing.js (debounce)");
  });

  it("refreshes the index after a coder step, so the researcher finds the new file", async () => {
    expect((await runCli(["index", "build"], { cwd: ws.root, env: env() })).code).toBe(0);
    const run = await runCli(["run", RETRY_TASK], { cwd: ws.root, env: env() });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const researcher = server.requests.filter((r) => roleOf(r) === "researcher").at(-1);
    const results = toolResults(researcher ?? ({ messages: [] } as unknown as ScriptedRequest)).filter((r) => r.name === "codebase_search");
    expect(results.at(-1)?.content).toMatch(/1\. src\/net\.js:1-6 withBackoff/);
  });
});
