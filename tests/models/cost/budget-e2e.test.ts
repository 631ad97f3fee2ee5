import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "../../faces/cli/cli-process.js";
import { greetScript, roleOf } from "../../faces/cli/task-script.js";

/**
 * The built CLI against the scripted server; every reply reports 1000 prompt + 100 completion tokens, so a run is
 * planner (1 call), coder (4), planner (1), reviewer (3), planner (1): 10 calls, 11000 tokens, $0.028 at $2/$8.
 * The budgets are chosen to run out at the end of the coder's run, so a sub-agent that checks the budget before
 * each call stops at the same place as the planner's check.
 */
let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer((req) => ({ ...greetScript(req), usage: { promptTokens: 1000, completionTokens: 100 } }));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_PRICES: '{"scripted": {"input": 2, "output": 8}}' };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

interface Listed {
  id: string;
  status: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

async function sessions(): Promise<Listed[]> {
  const listed = await runCli(["sessions", "--json"], { cwd: ws.root, env });
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as Listed[];
}

type JsonEvent = { type: string } & Record<string, unknown>;

describe("token and cost budgets (built CLI)", () => {
  it("stops at the token budget with a report, refuses to go on without more, and finishes under a higher budget", async () => {
    const stopped = await runCli(["run", "--budget-tokens", "5000", "Add greet with a test"], { cwd: ws.root, env });
    expect(stopped.stderr).toBe("");
    expect(stopped.code).toBe(1);
    // The running total at the end of the coder's step, then the stop and its report.
    expect(stopped.stdout).toContain("    tokens 5.0k in / 500 out · $0.0140\n");
    expect(stopped.stdout).toContain("⚠ limit reached: token budget of 5000 reached (5500 used)");
    expect(stopped.stdout).toContain("Stopped: limit reached: Add greet with a test");
    expect(stopped.stdout).toContain("Reason: token budget of 5000 reached (5500 used)");
    expect(stopped.stdout).toMatch(/Not done:\s+✗ s2 \[reviewer\] \(pending\)/);
    expect(stopped.stdout).toContain("Tokens: 5000 in, 500 out, 5 model calls");
    expect(stopped.stdout).toContain("Cost: $0.0140");
    expect(stopped.stdout).toContain("  coder · scripted: 4000 in, 400 out, 4 calls · $0.0112");
    const [row] = await sessions();
    expect(row).toMatchObject({ status: "limit_reached", inputTokens: 5000, outputTokens: 500, costUsd: 0.014 });
    expect(stopped.stdout).toContain(`Continue with a higher budget: mini-cursor resume ${row?.id} --budget-tokens <more than 5500>`);
    expect(server.requests.filter((r) => roleOf(r) === "reviewer")).toHaveLength(0);

    const before = server.requests.length;
    const same = await runCli(["resume"], { cwd: ws.root, env });
    expect(same.code).toBe(1);
    expect(same.stdout).toContain("stopped at its budget and cannot continue: the token budget of 5000 reached (5500 used)");
    const lower = await runCli(["resume", "--budget-tokens", "4000"], { cwd: ws.root, env });
    expect(lower.code).toBe(2);
    expect(lower.stderr).toMatch(/--budget-tokens can only raise the session's token budget of 5000/);
    expect(server.requests.length).toBe(before);

    const resumed = await runCli(["resume", "--budget-tokens", "20000", "--json"], { cwd: ws.root, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const events = resumed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as JsonEvent);
    const after = server.requests.slice(before);
    // Completed work is not redone: no coder call, no first plan; the planner reads the coder's report it had not read.
    expect(after.filter((r) => roleOf(r) === "coder")).toHaveLength(0);
    expect(after.some((r) => r.messages.some((m) => m.content.includes("There is no plan yet")))).toBe(false);
    expect(after.filter((r) => roleOf(r) === "reviewer")).toHaveLength(3);
    expect(events.filter((e) => e.type === "step_started").map((e) => e.stepId)).toEqual(["s2"]);

    const modelCalls = events.filter((e) => e.type === "model_call");
    expect(modelCalls).toHaveLength(5);
    expect(modelCalls[0]).toMatchObject({
      agent: "planner",
      model: "scripted",
      inputTokens: 1000,
      outputTokens: 100,
      estimated: false,
      total: { inputTokens: 6000, outputTokens: 600, calls: 6, costUsd: 0.0168, estimated: false },
    });
    expect(modelCalls.at(-1)).toMatchObject({ total: { inputTokens: 10000, outputTokens: 1000, calls: 10, costUsd: 0.028 } });
    const finished = events.at(-1);
    expect(finished).toMatchObject({
      type: "session_finished",
      status: "done",
      usage: { inputTokens: 10000, outputTokens: 1000, calls: 10, estimatedCalls: 0, costUsd: 0.028 },
    });
    expect(finished?.usage).toMatchObject({
      lines: expect.arrayContaining([expect.objectContaining({ agent: "reviewer", model: "scripted", calls: 3, costUsd: 0.0084 })]),
    });
    expect(String(finished?.report)).toMatch(/^Done: /);

    expect((await sessions())[0]).toMatchObject({ status: "done", inputTokens: 10000, outputTokens: 1000, costUsd: 0.028 });
    const table = await runCli(["sessions"], { cwd: ws.root, env });
    expect(table.stdout).toMatch(/TOKENS\s+COST\s+TURNS\s+TASK/);
    expect(table.stdout).toMatch(/done\s+\S+ \S+\s+11000\s+\$0\.0280\s+1\s+Add greet with a test/);
  });

  it("stops at a cost budget and continues when it is raised", async () => {
    // Reached at the end of the coder's run ($0.0112 before its last call, $0.0140 after).
    const stopped = await runCli(["run", "--budget-usd", "0.012", "Add greet with a test"], { cwd: ws.root, env });
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain("Reason: cost budget of $0.0120 reached ($0.0140 used)");
    expect(stopped.stdout).toMatch(/--budget-usd <more than 0\.0140>/);
    expect((await sessions())[0]?.status).toBe("limit_reached");

    const resumed = await runCli(["resume", "--budget-usd", "1"], { cwd: ws.root, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
    expect(resumed.stdout).toContain("Cost: $0.0280");
  });

  it("refuses a bad budget flag or malformed prices with exit 2", async () => {
    const unpriced = { ...env, MINI_CURSOR_PRICES: "" };
    const bad = await runCli(["run", "--budget-usd", "free", "x"], { cwd: ws.root, env: unpriced });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--budget-usd must be a positive amount/);
    const badPrices = await runCli(["run", "x"], { cwd: ws.root, env: { ...env, MINI_CURSOR_PRICES: "{" } });
    expect(badPrices.code).toBe(2);
    expect(badPrices.stderr).toMatch(/MINI_CURSOR_PRICES is not valid JSON/);
  });
});
