import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli } from "./cli-process.js";

const ROUNDS = 12;
let server: ScriptedServer;
let ws: TempWorkspace;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(Array.from({ length: ROUNDS }, (_, i) => `echo ${i} >> out.txt`)));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
});

afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

describe("many approvals in one session (issue 38)", () => {
  it("answers twelve approvals without a listener-leak warning on stderr", async () => {
    const env = { MINI_CURSOR_APPROVAL: "ask", OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
    const result = await runCli(["run", "--json", "Run the checks"], { cwd: ws.root, env, input: "y\n".repeat(ROUNDS) });
    expect(result.stderr).not.toContain("MaxListenersExceeded");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const answered = result.stdout.split("\n").filter((l) => l.includes('"type":"approval_answered"'));
    expect(answered).toHaveLength(ROUNDS);
    expect((await fs.readFile(path.join(ws.root, "out.txt"), "utf8")).trim().split("\n")).toHaveLength(ROUNDS);
  });
});
