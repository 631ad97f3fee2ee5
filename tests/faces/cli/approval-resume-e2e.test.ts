import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { mcpScript } from "./mcp-script.js";

/**
 * Approvals across restarts, one at a time: each resume answers only the approval it shows. An answer given to one
 * command must never carry over to the next one (which waits for its own answer, however often the session resumes).
 */
let server: ScriptedServer | undefined;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
  const touch = (name: string) => ({ name: "execute_command", args: { command: `touch ${name}` } });
  server = await startScriptedOpenAIServer(mcpScript([touch("one"), touch("two"), touch("three")]));
  env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask" };
});
afterEach(async () => {
  await server?.close();
  await ws.cleanup();
});

const made = () => ["one", "two", "three"].filter((f) => fs.existsSync(path.join(ws.root, f)));

describe("approvals answered one resume at a time", () => {
  it("runs only the command that was approved; the next one waits for its own answer", async () => {
    const first = await runCli(["run", "Touch three files"], { cwd: ws.root, env, input: "" });
    expect(first.code).toBe(130);
    expect(made()).toEqual([]);

    const second = await runCli(["resume"], { cwd: ws.root, env, input: "y\n" });
    expect(second.code).toBe(130);
    expect(made()).toEqual(["one"]);
    expect(second.stdout).toContain("touch two");

    // Nothing answered: the pending approval of `touch two` is asked again and nothing runs.
    for (let i = 0; i < 2; i++) {
      const idle = await runCli(["resume"], { cwd: ws.root, env, input: "" });
      expect(idle.code).toBe(130);
      expect(made()).toEqual(["one"]);
      expect(idle.stdout).toContain("touch two");
    }

    const rejected = await runCli(["resume"], { cwd: ws.root, env, input: "n not now\n" });
    expect(rejected.code).toBe(130);
    expect(made()).toEqual(["one"]);
    expect(rejected.stdout).toContain("touch three");

    const last = await runCli(["resume"], { cwd: ws.root, env, input: "y\n" });
    expect(last.code).toBe(0);
    expect(made()).toEqual(["one", "three"]);
  });
});
