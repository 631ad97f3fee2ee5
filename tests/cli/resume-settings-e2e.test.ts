import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { greetScript } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const cli = (args: string[], input?: string) => runCli(args, { cwd: ws.root, env, ...(input === undefined ? {} : { input }) });

describe("resume changes a session's settings for the rest of it", () => {
  it("raises a limit and says so", async () => {
    const first = await cli(["run", "--max-steps", "1", "Add greet with a test"]);
    expect(first.code).toBe(1);
    const resumed = await cli(["resume", "--max-steps", "5"]);
    expect(resumed.stdout).toContain("max steps: 1 → 5 for the rest of the session");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("review: approve");
  });

  it("changes the approval mode of a stopped session", async () => {
    const first = await cli(["run", "--approval", "ask", "--max-steps", "1", "Add greet with a test"], "y\n");
    expect(first.code).toBe(1);
    // One step is left (the review); in ask mode its test command would wait for an answer (stdin is closed).
    const switched = await cli(["resume", "--approval", "auto", "--max-steps", "1"], "");
    expect(switched.stdout).toContain("approval: ask → auto for the rest of the session");
    expect(switched.stdout).not.toContain("approval needed");
    expect(switched.code).toBe(0);
    expect(switched.stdout).toContain("review: approve");
  });

  it("says in one line what it cannot change for a session stopped mid-step", async () => {
    const first = await cli(["run", "--approval", "ask", "Add greet with a test"], "");
    expect(first.code).toBe(130);
    const refused = await cli(["resume", "--approval", "auto"], "");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^mini-cursor: session \S+ is awaiting_approval: approval, network and limit flags apply only to[^\n]*\n$/);
  });

  it("refuses a value it cannot use, in one line", async () => {
    expect((await cli(["run", "--max-steps", "1", "Add greet with a test"])).code).toBe(1);
    const bad = await cli(["resume", "--approval", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mini-cursor: --approval must be ask, auto or read-only, got "sometimes"\n');
  });
});
