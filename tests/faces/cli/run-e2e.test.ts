import fs from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { GREET_SOURCE, GREET_TEST, TEST_COMMAND, greetScript, roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "sk-test-secret", MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

describe("mini-cursor run (built CLI against a scripted OpenAI-compatible server)", () => {
  it("writes a module and its test, runs the test, gets a review and finishes", async () => {
    const result = await runCli(["run", "Add a greet(name) function with a unit test"], { cwd: ws.root, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    expect(await fs.readFile(path.join(ws.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(await fs.readFile(path.join(ws.root, "test/greet.test.js"), "utf8")).toBe(GREET_TEST);

    // The test command really ran: its real output went back to the model, exit code 0.
    const coderResults = server.requests.filter((r) => roleOf(r) === "coder").flatMap((r) => toolResults(r));
    const testRun = coderResults.find((t) => t.name === "execute_command");
    expect(testRun?.content).toMatch(/Exit code: 0/);
    expect(testRun?.content).toMatch(/# pass 1/);
    // The API key never reaches commands or the model's view of the environment.
    expect(JSON.stringify(server.requests.map((r) => r.messages))).not.toContain("sk-test-secret");

    // Progress a person can follow, and the final summary.
    expect(result.stdout).toContain("▶ s1 coder");
    expect(result.stdout).toContain(`$ execute_command ${TEST_COMMAND}`);
    expect(result.stdout).toMatch(/│ .*pass 1/);
    expect(result.stdout).toContain("review: approve");
    expect(result.stdout).toMatch(/Files changed \(2\):\s+src\/greet\.js\s+test\/greet\.test\.js/);
    expect(result.stdout).toMatch(/\[coder s1\] node --test test\/ → exit 0/);
    expect(result.stdout).toMatch(/Tokens: \d+ in, \d+ out/);

    // The session is stored.
    const db = new Database(path.join(ws.root, ".mini-cursor/sessions.sqlite"), { readonly: true });
    try {
      const rows = db.prepare("SELECT id, status, task FROM mc_sessions").all() as { id: string; status: string; task: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "done", task: "Add a greet(name) function with a unit test" });
      const checkpoints = db.prepare("SELECT count(*) AS n FROM checkpoints WHERE thread_id = ?").get(rows[0]?.id) as { n: number };
      expect(checkpoints.n).toBeGreaterThan(3);
    } finally {
      db.close();
    }
    const listed = await runCli(["sessions", "--json"], { cwd: ws.root, env });
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout) as { status: string; inputTokens: number }[];
    expect(sessions[0]?.status).toBe("done");
    expect(sessions[0]?.inputTokens).toBeGreaterThan(0);
  });

  it("prints one JSON event per line with --json", async () => {
    const result = await runCli(["run", "--json", "--workspace", ws.root, "Add greet with a test"], { cwd: "/", env });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; ts: string; status?: string });
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      "session_started",
      "plan",
      "step_started",
      "tool_call",
      "tool_result",
      "command_output",
      "model_call",
      "step_finished",
      "review",
      "session_finished",
    ]) {
      expect(types.has(t), t).toBe(true);
    }
    expect(events.every((e) => !Number.isNaN(Date.parse(e.ts)))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
  });

  it("exits 1 with a report when a limit is reached", async () => {
    const result = await runCli(["run", "--max-steps", "1", "Add greet with a test"], { cwd: ws.root, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Stopped: limit reached");
    expect(result.stdout).toMatch(/Not done:[\s\S]*reviewer/);
  });

  it("rejects bad input with one clear line and exit code 2", async () => {
    const cases: [string[], RegExp][] = [
      [["run"], /missing task/],
      [["run", "--max-steps", "zero", "x"], /--max-steps must be a positive whole number/],
      [["run", "--frobnicate", "x"], /unknown option --frobnicate for mini-cursor run/],
      [["run", "--workspace", "/nonexistent/dir", "x"], /workspace \/nonexistent\/dir does not exist/],
      [["launch"], /unknown command "launch"/],
      [["resume", "nope"], /no session "nope"/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: ws.root, env });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
  });

  it("exits 2 and explains how to configure a model when none is set and no Ollama answers", async () => {
    const result = await runCli(["run", "x"], { cwd: ws.root, env: { OLLAMA_HOST: "127.0.0.1:9" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No model endpoint is configured/);
    expect(result.stderr).toMatch(/OPENAI_API_KEY/);
    expect(result.stderr).toMatch(/Ollama/);
  });

  it("finds a local Ollama when no endpoint is configured, and says so", async () => {
    const host = new URL(server.baseUrl).host;
    const result = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env: { OLLAMA_HOST: host } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`No model endpoint configured: using the local Ollama found at http://${host} with model scripted-model`);
    expect(server.requests.every((r) => r.model === "scripted-model")).toBe(true);
  });

  it("retries a failed model request and gives up on a stalled one with a resumable error", async () => {
    await server.close();
    let failedOnce = false;
    let stall = true;
    server = await startScriptedOpenAIServer((req) => {
      if (!failedOnce) {
        failedOnce = true;
        return { httpStatus: 500, error: "temporary failure" };
      }
      if (stall && roleOf(req) === "reviewer") return { hangMs: 30_000 };
      return greetScript(req);
    });
    env = { ...env, OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL_TIMEOUT_MS: "700", MINI_CURSOR_MODEL_RETRIES: "1" };
    const stalled = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(stalled.code).toBe(1);
    // One line naming the endpoint, what it did and what to do (not the client's "Request timed out.").
    expect(stalled.stdout).toMatch(
      /The session stopped: the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 did not answer within 0\.7 s \(2 times\): .*MINI_CURSOR_MODEL_TIMEOUT_MS/,
    );
    expect(stalled.stdout).not.toContain("Request timed out.");
    expect(stalled.stdout).toMatch(/Resume with: mini-cursor resume \S+/);
    expect(server.requests[0]?.index).toBe(0);
    // The 500 was retried: the planner's first request came twice.
    expect(server.requests.filter((r) => r.messages.some((m) => m.content.includes("There is no plan yet")))).toHaveLength(2);

    stall = false;
    const resumed = await runCli(["resume"], { cwd: ws.root, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
  });

  it("answers --help and --version", async () => {
    const help = await runCli(["--help"], { cwd: ws.root, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/mini-cursor run "<task>"/);
    for (const cmd of ["run", "resume", "sessions"]) {
      const sub = await runCli([cmd, "--help"], { cwd: ws.root, env });
      expect(sub.code).toBe(0);
      expect(sub.stdout).toContain(`mini-cursor ${cmd}`);
    }
    const version = await runCli(["--version"], { cwd: ws.root, env });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
