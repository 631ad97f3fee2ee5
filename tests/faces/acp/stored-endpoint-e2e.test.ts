import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { followUpScript } from "../cli/follow-up-script.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { agentText, startAcp, type AcpProcess } from "./acp-process.js";

/** A session given another endpoint with `resume --base-url` keeps it when an editor loads it and prompts. */
let configured: ScriptedServer;
let chosen: ScriptedServer;
let ws: TempWorkspace;
const agents: AcpProcess[] = [];

beforeEach(async () => {
  configured = await startScriptedOpenAIServer(followUpScript);
  chosen = await startScriptedOpenAIServer(followUpScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.kill("SIGKILL");
    await agent.close();
  }
  await Promise.all([configured.close(), chosen.close()]);
  await ws.cleanup();
});

describe("a session's own endpoint in the editor", () => {
  it("sends an editor prompt to the endpoint resume --base-url gave the session, not the configured one", async () => {
    const env = { OPENAI_BASE_URL: configured.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" };
    const ran = await runCli(["run", "--json", "Add greet with a test"], { cwd: ws.root, env });
    expect(ran.code, ran.stderr).toBe(0);
    const id = (JSON.parse(ran.stdout.trim().split("\n").at(-1) ?? "{}") as { sessionId?: string }).sessionId ?? "";
    const moved = await runCli(["resume", id, "--base-url", chosen.baseUrl, "--message", "Also add a farewell"], { cwd: ws.root, env });
    expect(moved.code, moved.stderr).toBe(0);
    const before = { configured: configured.requests.length, chosen: chosen.requests.length };

    const acp = startAcp({ cwd: ws.root, env });
    agents.push(acp);
    await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
    await acp.agent.request("session/load", { sessionId: id, cwd: ws.root, mcpServers: [] });
    const prompt = await acp.agent.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "Check the farewell again" }] });
    expect(prompt.stopReason, agentText(acp).slice(-1500)).toBe("end_turn");
    expect(chosen.requests.length).toBeGreaterThan(before.chosen);
    expect(configured.requests.length).toBe(before.configured);
  });
});
