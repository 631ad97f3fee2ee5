import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli } from "./cli-process.js";

/** A web search key read from a variable with an ordinary name (web.search.apiKeyEnv) never reaches a command. */
let model: ScriptedServer;
let ws: TempWorkspace;
let userConfig: TempWorkspace;

beforeEach(async () => {
  model = await startScriptedOpenAIServer(commandScript(["env > env.txt"]));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  userConfig = await makeTempWorkspace();
});
afterEach(async () => {
  await model.close();
  await Promise.all([ws.cleanup(), userConfig.cleanup()]);
});

describe("the search key and commands", () => {
  it("keeps a key named by web.search.apiKeyEnv out of a command's environment, whatever the variable is called", async () => {
    const key = "brv-e2e-5a7c9e1f3b";
    await mkdir(path.join(userConfig.root, "mini-cursor"), { recursive: true });
    await writeFile(path.join(userConfig.root, "mini-cursor", "config.json"), JSON.stringify({ web: { search: { provider: "brave", apiKeyEnv: "SEARCHY" } } }));
    const env = { OPENAI_BASE_URL: model.baseUrl, MINI_CURSOR_MODEL: "scripted", XDG_CONFIG_HOME: userConfig.root, SEARCHY: key, PLAIN_SETTING: "visible" };
    const result = await runCli(["run", "Run the checks"], { cwd: ws.root, env });
    expect(result.code, result.stderr).toBe(0);
    const seen = await readFile(path.join(ws.root, "env.txt"), "utf8");
    expect(seen).toContain("PLAIN_SETTING=visible");
    expect(seen).not.toContain(key);
    expect(seen).not.toContain("SEARCHY");
  });
});
