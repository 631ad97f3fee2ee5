import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { sessionRows } from "../cli/follow-up-script.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { startAcp, type AcpProcess, type PermissionHandler } from "./acp-process.js";
import { checkScript, SLOW_COMMAND, slowProcesses } from "./check-script.js";

let command = SLOW_COMMAND;

let server: ScriptedServer;
let ws: TempWorkspace;
let acp: AcpProcess | null = null;

beforeEach(async () => {
  command = SLOW_COMMAND;
  server = await startScriptedOpenAIServer(checkScript(() => command));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  acp?.child.kill("SIGKILL");
  await acp?.close();
  acp = null;
  for (const pid of slowProcesses()) process.kill(pid, "SIGKILL");
  await server.close();
  await ws.cleanup();
});

async function open(approval: string, onPermission?: PermissionHandler): Promise<{ agent: AcpProcess; sessionId: string }> {
  acp = startAcp({
    cwd: ws.root,
    env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: approval },
    ...(onPermission ? { onPermission } : {}),
  });
  await acp.agent.request("initialize", { protocolVersion: 1 });
  const { sessionId } = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
  return { agent: acp, sessionId };
}

const rows = () => sessionRows((args) => runCli(args, { cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" } }));

describe("session/cancel", () => {
  it("mid-command: the command is killed, the prompt returns cancelled, and the session takes the next prompt", async () => {
    const { agent, sessionId } = await open("auto");
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Run the slow check" }] });
    await agent.waitForUpdate((u) => u.sessionUpdate === "tool_call" && u.kind === "execute" && u.status === "in_progress");
    // The command is really running before the cancel.
    await expect.poll(() => slowProcesses().length, { timeout: 10_000 }).toBeGreaterThan(0);
    // One prompt at a time per session.
    await expect(agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "And another" }] })).rejects.toMatchObject({
      code: -32600,
      message: `session ${sessionId} is already running a prompt; wait for it or send session/cancel`,
    });
    const cancelledAt = Date.now();
    await agent.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);
    await expect.poll(() => slowProcesses(), { timeout: 5_000 }).toEqual([]);
    expect((await rows())[0]).toMatchObject({ id: sessionId, status: "interrupted" });

    // Resumable: the next prompt is a follow-up turn of the same session.
    const next = await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Leave it and finish" }] });
    expect(next.stopReason).toBe("end_turn");
    expect((await rows())[0]).toMatchObject({ id: sessionId, status: "done", turns: 2 });
  });

  it("at a pending permission: the request is withdrawn, the prompt returns cancelled; the next prompt asks it again", async () => {
    // Writes a file, so it asks (a read-only command would run without asking: issue 38).
    command = "echo checked | tee checked.txt";
    const pending: { withdraw?: () => void } = {};
    const asked: string[] = [];
    // The first request is left open (the person looks away); later ones are allowed.
    const { agent, sessionId } = await open("ask", (request) => {
      asked.push(request.toolCall.toolCallId);
      if (asked.length > 1) return { outcome: { outcome: "selected", optionId: "allow_once" } };
      return new Promise((resolve) => (pending.withdraw = () => resolve({ outcome: { outcome: "cancelled" } })));
    });
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Run the check" }] });
    await expect.poll(() => asked.length, { timeout: 20_000 }).toBe(1);
    await agent.agent.notify("session/cancel", { sessionId });
    // What an editor does after a cancel: it answers its open permission requests as cancelled.
    pending.withdraw?.();
    expect((await prompt).stopReason).toBe("cancelled");
    expect((await rows())[0]).toMatchObject({ id: sessionId, status: "awaiting_approval" });
    // The withdrawn request's tool call is not left pending in the editor.
    expect(agent.updates.map((n) => n.update)).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: asked[0], status: "failed" }),
    );

    const again = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Go on" }] });
    await expect.poll(() => asked.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect((await again).stopReason).toBe("end_turn");
    const ran = agent.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === asked[1] && u.status === "completed");
    expect(JSON.stringify(ran)).toContain("checked");
    expect((await rows())[0]).toMatchObject({ status: "done", turns: 2 });
  });
});
