import { describe, expect, it } from "vitest";
import { greetScript, TEST_COMMAND } from "../cli/task-script.js";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { startAcp, updatesOf, useAcpFixture, type AcpProcess, type PermissionHandler } from "./acp-process.js";

/**
 * The greet task runs its test command twice (the coder, then the reviewer): how each permission answer and a mode
 * switch decide whether the second run asks.
 */
const fx = useAcpFixture(greetScript);

async function promptWith(onPermission: PermissionHandler, beforePrompt?: (sessionId: string) => Promise<void>) {
  fx.acp = startAcp({ cwd: fx.ws.root, env: { OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask" }, onPermission });
  await fx.acp.agent.request("initialize", { protocolVersion: 1 });
  const { sessionId } = await fx.acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
  await beforePrompt?.(sessionId);
  const { stopReason } = await fx.acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add greet with a test" }] });
  const commands = updatesOf(fx.acp, "tool_call").filter((c) => c.kind === "execute");
  const results = fx.server.requests.flatMap((r) => toolResults(r)).filter((t) => t.name === "execute_command");
  return { acp: fx.acp, sessionId, stopReason, commands, results };
}

const statusesOf = (agent: AcpProcess, id: string) =>
  updatesOf(agent, "tool_call_update")
    .filter((u) => u.toolCallId === id)
    .map((u) => u.status)
    .filter(Boolean);

describe("permission answers and modes", () => {
  it("allow always: the same command does not ask again this session", async () => {
    const run = await promptWith(() => ({ outcome: { outcome: "selected", optionId: "allow_always" } }));
    expect(run.stopReason).toBe("end_turn");
    expect(run.acp.permissions).toHaveLength(1);
    expect(run.acp.permissions[0]?.options.find((o) => o.kind === "allow_always")?.name).toBe(`Always allow ${TEST_COMMAND}`);
    // Both runs of the command happened: the asked one (pending, then run) and the one the grant covered.
    expect(run.commands).toHaveLength(2);
    for (const call of run.commands) expect(statusesOf(run.acp, call.toolCallId)).toContain("completed");
  });

  it("reject: the command does not run, its call fails, and the model is told", async () => {
    const run = await promptWith(() => ({ outcome: { outcome: "selected", optionId: "reject_once" } }));
    expect(run.stopReason).toBe("end_turn");
    expect(run.acp.permissions.length).toBeGreaterThanOrEqual(1);
    const first = run.acp.permissions[0]?.toolCall.toolCallId ?? "";
    expect(statusesOf(run.acp, first)).toEqual(["failed"]);
    expect(run.results[0]?.content).toMatch(/rejected/i);
  });

  it("a switch to auto while a permission is open: the later command runs without asking", async () => {
    const switched: string[] = [];
    let agent: AcpProcess | null = null;
    const run = await promptWith(
      async (request) => {
        await agent?.agent.request("session/set_mode", { sessionId: request.sessionId, modeId: "auto" });
        switched.push(request.sessionId);
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      },
      async () => {
        agent = fx.acp;
      },
    );
    expect(run.stopReason).toBe("end_turn");
    expect(switched).toHaveLength(1);
    expect(run.acp.permissions).toHaveLength(1);
    expect(run.commands).toHaveLength(2);
  });
});
