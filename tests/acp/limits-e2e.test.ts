import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { followUpScript, sessionRows } from "../cli/follow-up-script.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { agentText, startAcp, type AcpProcess } from "./acp-process.js";

/**
 * A session started in the terminal with `--max-steps 1` keeps that limit when an editor loads it; a turn that needs
 * more sub-agent runs ends with `max_turn_requests`.
 */
let server: ScriptedServer;
let ws: TempWorkspace;
let acp: AcpProcess | null = null;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(followUpScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  acp?.child.kill("SIGKILL");
  await acp?.close();
  acp = null;
  await server.close();
  await ws.cleanup();
});

describe("limits over ACP", () => {
  it("a turn stopped by a limit returns max_turn_requests and says which limit", async () => {
    const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" };
    const started = await runCli(["run", "--max-steps", "1", "Add greet with a test"], { cwd: ws.root, env });
    expect(started.code).toBe(1);
    const [row] = await sessionRows((args) => runCli(args, { cwd: ws.root, env }));
    expect(row?.status).toBe("limit_reached");

    acp = startAcp({ cwd: ws.root, env });
    await acp.agent.request("initialize", { protocolVersion: 1 });
    await acp.agent.request("session/load", { sessionId: row?.id ?? "", cwd: ws.root, mcpServers: [] });
    // This instruction names no file of the script: the planner keeps routing coder steps, past the one allowed.
    const { stopReason } = await acp.agent.request("session/prompt", { sessionId: row?.id ?? "", prompt: [{ type: "text", text: "Keep going" }] });
    expect(stopReason).toBe("max_turn_requests");
    expect(agentText(acp)).toContain("Limit reached (sub-agent runs)");
  });
});
