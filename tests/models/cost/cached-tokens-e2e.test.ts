import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "../../faces/cli/cli-process.js";
import { greetScript, roleOf } from "../../faces/cli/task-script.js";
import { formatUsd } from "../../../src/models/cost/format.js";

/**
 * The built CLI against the scripted server, whose endpoint reports a prompt cache: every reply counts 1000 prompt
 * tokens and 100 completion tokens, and every one after the first (the cold cache) says 800 of the prompt tokens were
 * cached. The model is priced $2 in, $0.50 cached in, $8 out per 1M tokens.
 */
const PROMPT = 1000;
const CACHED = 800;
const COMPLETION = 100;
const PRICE = { input: 2, output: 8, cachedInput: 0.5 };

let server: ScriptedServer;
let ws: TempWorkspace;
let elsewhere: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer((req) => ({
    ...greetScript(req),
    usage: { promptTokens: PROMPT, completionTokens: COMPLETION, ...(req.index > 0 ? { cachedTokens: CACHED } : {}) },
  }));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  elsewhere = await makeTempWorkspace();
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_PRICES: JSON.stringify({ scripted: PRICE }) };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
  await elsewhere.cleanup();
});

/** What `calls` scripted replies cost, `cached` of them with cached prompt tokens. */
function expectedUsd(calls: number, cached: number): number {
  const cachedTokens = cached * CACHED;
  return ((calls * PROMPT - cachedTokens) * PRICE.input + cachedTokens * PRICE.cachedInput + calls * COMPLETION * PRICE.output) / 1_000_000;
}

describe("cached input tokens (built CLI against an endpoint with a prompt cache)", () => {
  it("reports the cached tokens and prices them at the cached-input price", async () => {
    const result = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const calls = server.requests.length;
    expect(calls).toBeGreaterThan(3);
    const cached = calls - 1;
    expect(result.stdout).toContain(`Tokens: ${calls * PROMPT} in (${cached * CACHED} cached), ${calls * COMPLETION} out, ${calls} model calls`);
    const usd = expectedUsd(calls, cached);
    // The cache made a difference: the same tokens at the input price cost more.
    expect(usd).toBeLessThan(expectedUsd(calls, 0));
    expect(result.stdout).toContain(`Cost: ${formatUsd(usd)}\n`);
    // Each agent line says its own cached count; the coder's calls all came after the first.
    const coderCalls = server.requests.filter((r) => roleOf(r) === "coder").length;
    expect(result.stdout).toContain(
      `  coder · scripted: ${coderCalls * PROMPT} in (${coderCalls * CACHED} cached), ${coderCalls * COMPLETION} out, ${coderCalls} calls · ${formatUsd(expectedUsd(coderCalls, coderCalls))}`,
    );
    // The running total at the end of a step says the cached part too.
    expect(result.stdout).toMatch(/ {4}tokens \S+ in \(\S+ cached\) \/ \S+ out · \$/);

    const listed = await runCli(["sessions", "--json"], { cwd: ws.root, env });
    expect(listed.code).toBe(0);
    const [row] = JSON.parse(listed.stdout) as { id: string; costUsd: number | null }[];
    expect(row?.costUsd).toBeCloseTo(usd, 6);

    // Replayed offline from its recording, the session reports the same cached tokens and cost.
    const into = path.join(elsewhere.root, "replayed");
    const replay = await runCli(["replay", row?.id ?? "", "--into", into, "--workspace", ws.root], {
      cwd: elsewhere.root,
      env: { MINI_CURSOR_PRICES: env.MINI_CURSOR_PRICES ?? "" },
    });
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(`Tokens: ${calls * PROMPT} in (${cached * CACHED} cached), ${calls * COMPLETION} out, ${calls} model calls`);
    expect(replay.stdout).toContain(`Cost: ${formatUsd(usd)}\n`);
  });

  it("carries the cached tokens in the --json events", async () => {
    const result = await runCli(["run", "--json", "Add greet with a test"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
    const calls = server.requests.length;
    const modelCalls = events.filter((e) => e.type === "model_call");
    expect(modelCalls.at(-1)).toMatchObject({
      inputTokens: PROMPT,
      cachedInputTokens: CACHED,
      total: { inputTokens: calls * PROMPT, cachedInputTokens: (calls - 1) * CACHED, calls },
    });
    // The first reply reported none: its event says nothing of a cache.
    expect(modelCalls[0]).not.toHaveProperty("cachedInputTokens");
    const finished = events.at(-1);
    expect(finished).toMatchObject({
      type: "session_finished",
      status: "done",
      usage: { inputTokens: calls * PROMPT, cachedInputTokens: (calls - 1) * CACHED, calls },
    });
    expect((finished?.usage as { costUsd: number }).costUsd).toBeCloseTo(expectedUsd(calls, calls - 1), 6);
    expect(String(finished?.report)).toContain(`(${(calls - 1) * CACHED} cached)`);
  });
});
