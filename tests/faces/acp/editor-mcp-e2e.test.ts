import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpScript, processesWith } from "../cli/mcp-script.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { agentText, startAcp, updatesOf, type AcpProcess } from "./acp-process.js";

/** MCP servers the editor passes with session/new are connected like those of .mcp.json, and stop with the turn. */
let server: ScriptedServer;
let ws: TempWorkspace;
let acp: AcpProcess | null = null;
let marker = "";

beforeEach(async () => {
  server = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__editor_tools__get-sum", args: { a: 19, b: 23 } }]));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  marker = `acp-mcp-${path.basename(ws.root)}`;
});
afterEach(async () => {
  acp?.child.kill("SIGKILL");
  await acp?.close();
  acp = null;
  for (const pid of await processesWith(marker)) process.kill(pid, "SIGKILL");
  await server.close();
  await ws.cleanup();
});

describe("the editor's MCP servers", () => {
  it("a stdio server from session/new gives the coder its tools; its call shows as a tool call; it stops after the turn; SSE is refused", async () => {
    acp = startAcp({ cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" } });
    await acp.agent.request("initialize", { protocolVersion: 1 });
    // The name has a space: made safe for tool names (mcp__editor_tools__…).
    const { sessionId } = await acp.agent.request("session/new", {
      cwd: ws.root,
      mcpServers: [
        { name: "editor tools", command: process.execPath, args: [EVERYTHING, "stdio", marker], env: [] },
        { type: "sse", name: "legacy", url: "http://127.0.0.1:9/sse", headers: [] },
      ],
    });
    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add 19 and 23 with the MCP tool" }] });
    expect(done.stopReason).toBe("end_turn");
    // An SSE server is not connected, and the first prompt's messages say so.
    expect(agentText(acp)).toContain('MCP server "legacy" from the editor is not connected: SSE servers are not supported');
    const result = server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__editor_tools__get-sum");
    expect(result?.content).toContain("42");
    const call = updatesOf(acp, "tool_call").find((c) => c.title.startsWith("mcp__editor_tools__get-sum"));
    expect(call).toMatchObject({ kind: "other", status: "in_progress" });
    expect(updatesOf(acp, "tool_call_update").some((u) => u.toolCallId === call?.toolCallId && u.status === "completed")).toBe(true);
    await expect.poll(() => processesWith(marker), { timeout: 10_000 }).toEqual([]);
  });
});
