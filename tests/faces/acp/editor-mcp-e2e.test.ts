import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpScript, processesWith } from "../cli/mcp-script.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { startAcp, updatesOf, type AcpProcess } from "./acp-process.js";

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
  it("a stdio server from session/new gives the coder its tools; its call shows as a tool call; it stops after the turn", async () => {
    acp = startAcp({ cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" } });
    await acp.agent.request("initialize", { protocolVersion: 1 });
    // The name has a space: made safe for tool names (mcp__editor_tools__…).
    const { sessionId } = await acp.agent.request("session/new", {
      cwd: ws.root,
      mcpServers: [{ name: "editor tools", command: process.execPath, args: [EVERYTHING, "stdio", marker], env: [] }],
    });
    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add 19 and 23 with the MCP tool" }] });
    expect(done.stopReason).toBe("end_turn");
    const result = server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__editor_tools__get-sum");
    expect(result?.content).toContain("42");
    const call = updatesOf(acp, "tool_call").find((c) => c.title.startsWith("mcp__editor_tools__get-sum"));
    expect(call).toMatchObject({ kind: "other", status: "in_progress" });
    expect(updatesOf(acp, "tool_call_update").some((u) => u.toolCallId === call?.toolCallId && u.status === "completed")).toBe(true);
    await expect.poll(() => processesWith(marker), { timeout: 10_000 }).toEqual([]);
  });

  it("the permission request for a tool that may change things names the server's tool and shows its arguments", async () => {
    const args = { name: "notes.txt.gz", data: "data:text/plain;base64,aGVsbG8K", outputType: "resource" };
    await server.close();
    server = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__editor_tools__gzip-file-as-resource", args }]));
    // Even in auto mode, an MCP tool not annotated read-only asks.
    acp = startAcp({ cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" } });
    await acp.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await acp.agent.request("session/new", {
      cwd: ws.root,
      mcpServers: [{ name: "editor tools", command: process.execPath, args: [EVERYTHING, "stdio", marker], env: [] }],
    });
    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Compress the note with the MCP tool" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(acp.permissions).toHaveLength(1);
    const { toolCall } = acp.permissions[0]!;
    expect(toolCall.title).toBe(`mcp__editor_tools__gzip-file-as-resource: ${JSON.stringify(args)}`);
    expect(toolCall.rawInput).toEqual({ tool: "mcp__editor_tools__gzip-file-as-resource", arguments: args });
    expect(JSON.stringify(toolCall.content)).toContain("data:text/plain;base64,aGVsbG8K");
    // Allowed once: it ran under the id the request named.
    expect(updatesOf(acp, "tool_call_update").some((u) => u.toolCallId === toolCall.toolCallId && u.status === "in_progress")).toBe(true);
  });

  it("session/new or session/load with an SSE server is refused with one line (invalid params); nothing is opened", async () => {
    acp = startAcp({ cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" } });
    const init = await acp.agent.request("initialize", { protocolVersion: 1 });
    expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true, sse: false });
    const sse = { type: "sse" as const, name: "legacy", url: "http://127.0.0.1:9/sse", headers: [] };
    const line = 'MCP server "legacy": SSE servers are not supported (mcpCapabilities.sse is false); use stdio or http';
    await expect(acp.agent.request("session/new", { cwd: ws.root, mcpServers: [sse] })).rejects.toMatchObject({ code: -32602, message: line });
    // No session was kept for the refused request.
    expect(await acp.agent.request("session/list", { cwd: ws.root })).toEqual({ sessions: [] });
    const { sessionId } = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
    await expect(acp.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [sse] })).rejects.toMatchObject({ code: -32602, message: line });
    expect(acp.stderr()).not.toMatch(/\n\s+at /);
  });
});
