import { afterEach, describe, expect, it } from "vitest";
import {
  startScriptedOpenAIServer,
  toolResults,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
  userText,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { roleOf } from "./task-script.js";

/**
 * Issue 46 through the real client: what an endpoint receives lets its prompt cache work. Each request of a run repeats
 * the previous one and appends to it (but at a few batch compactions), the tool definitions and system prompts are the
 * same bytes on every call, changing notes come after what stays, and every request names the session's cache key.
 */
let server: ScriptedServer | null = null;
let ws: TempWorkspace | null = null;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = null;
  ws = null;
});

const FILES = 14;
const BUDGET = 16_000;

/** The planner plans a coder step and a review, then finishes; the coder reads every file, one per call. */
function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return {
        toolCalls: [
          {
            name: "update_plan",
            args: {
              remainingSteps: [
                { agent: "coder", goal: "Read every module and report what each exports", acceptanceCriteria: ["every module read"] },
                { agent: "reviewer", goal: "Check the report", acceptanceCriteria: [] },
              ],
              finished: false,
            },
          },
        ],
      };
    }
    if (!userText(req).includes("Review verdict"))
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "reviewer", goal: "Check the report" }], finished: false } }] };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Read and reviewed." } }] };
  }
  if (role === "coder") {
    const done = toolResults(req).length;
    if (done < FILES) return { toolCalls: [{ name: "read_file", args: { path: `src/m${done}.js` } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "Every module exports one function." } }] };
  }
  return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "Fine.", problems: [] } }] };
}

const body = (req: ScriptedRequest) => req.body as { messages: unknown[]; tools?: unknown[]; prompt_cache_key?: unknown };
const json = (value: unknown) => JSON.stringify(value);

/** The requests of each sub-agent run in order (a run starts where the conversation starts again). */
function runsOf(requests: readonly ScriptedRequest[], role: string): ScriptedRequest[][] {
  const runs: ScriptedRequest[][] = [];
  for (const req of requests.filter((r) => roleOf(r) === role)) {
    const current = runs.at(-1);
    const previous = current?.at(-1);
    if (!current || !previous || body(req).messages.length <= body(previous).messages.length) runs.push([req]);
    else current.push(req);
  }
  return runs;
}

function extendsPrevious(previous: ScriptedRequest, next: ScriptedRequest): boolean {
  const before = body(previous).messages;
  const after = body(next).messages;
  return before.every((m, i) => json(m) === json(after[i]));
}

/** A session; the scripted endpoint is on loopback, where the key is not sent unless asked for. */
async function session(cacheKey: "on" | "auto" = "on"): Promise<ScriptedRequest[]> {
  server?.requests.splice(0);
  const env = { OPENAI_BASE_URL: server?.baseUrl ?? "", MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_PROMPT_CACHE_KEY: cacheKey };
  const result = await runCli(["run", "--approval", "auto", "--context-budget", String(BUDGET), "Report what every module exports"], {
    cwd: ws?.root ?? "",
    env,
  });
  expect(result.code, result.stderr).toBe(0);
  return [...(server?.requests ?? [])];
}

describe("prompts a provider can cache (issue 46)", () => {
  it("sends each run's requests append-only between batch compactions, with the same tools and heads, and the session's cache key", async () => {
    server = await startScriptedOpenAIServer(script);
    const files: Record<string, string> = { "package.json": "{}\n" };
    for (let i = 0; i < FILES; i++)
      files[`src/m${i}.js`] =
        `// module ${i}\n${Array.from({ length: 160 }, (_, n) => `export const value${i}_${n} = ${n} * ${i}; // line ${n}`).join("\n")}\n`;
    ws = await makeTempWorkspace(files);
    const requests = await session();

    const [coderRun, ...otherCoderRuns] = runsOf(requests, "coder");
    expect(otherCoderRuns).toHaveLength(0);
    expect(coderRun?.length).toBe(FILES + 1);
    const coder = coderRun ?? [];
    // Within the run: the same tool definitions every time, and the previous request repeated except at a compaction.
    const breaks = coder.slice(1).filter((req, i) => !extendsPrevious(coder[i] as ScriptedRequest, req)).length;
    expect(breaks).toBeGreaterThan(0); // the files outgrow the budget: the context was compacted
    expect(breaks).toBeLessThanOrEqual(3); // in batches, not one more cleared result per call
    expect(new Set(coder.map((r) => json(body(r).tools))).size).toBe(1);

    // The planner: the same system prompt and tools on every turn; its context starts with the task and ends with
    // the changing counters.
    const planner = requests.filter((r) => roleOf(r) === "planner");
    expect(planner.length).toBeGreaterThanOrEqual(3);
    expect(new Set(planner.map((r) => json(body(r).tools))).size).toBe(1);
    expect(new Set(planner.map((r) => json(body(r).messages[0]))).size).toBe(1);
    const contexts = planner.map(userText);
    for (const context of contexts) {
      expect(context.startsWith("Task: Report what every module exports\nWorkspace: ")).toBe(true);
      expect(context.trimEnd().split("\n").slice(-2)[0]).toMatch(/^Budget used: sub-agent runs \d+\//);
    }

    // One cache key per agent of the session, on every request.
    const keys = (role: string) => new Set(requests.filter((r) => roleOf(r) === role).map((r) => body(r).prompt_cache_key));
    for (const role of ["planner", "coder", "reviewer"]) {
      expect([...keys(role)]).toEqual([expect.stringMatching(new RegExp(`^mini-cursor-${role}-[0-9a-f]{16}$`))]);
    }
    // Another session in the same workspace has keys of its own.
    const again = await session();
    const plannerKey = [...keys("planner")][0];
    expect(
      again.filter((r) => roleOf(r) === "planner").every((r) => body(r).prompt_cache_key !== plannerKey && typeof body(r).prompt_cache_key === "string"),
    ).toBe(true);
    // By default an endpoint on this machine gets no key: it caches prefixes without one.
    const local = await session("auto");
    expect(local.length).toBeGreaterThan(0);
    expect(local.every((r) => body(r).prompt_cache_key === undefined)).toBe(true);
  }, 120_000);
});
