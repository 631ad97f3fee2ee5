import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { sessionRows } from "../cli/follow-up-script.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { startAcp, updatesOf, type AcpProcess } from "./acp-process.js";
import { checkScript, SLOW_COMMAND, slowProcesses } from "./check-script.js";

/**
 * The editor goes away mid-turn (closes stdin, or stops the agent with SIGTERM): the agent stops the turn, kills its
 * commands and exits; the session is left resumable, and a new agent process loads it and continues.
 */
let server: ScriptedServer;
let ws: TempWorkspace;
const agents: AcpProcess[] = [];

beforeEach(async () => {
  server = await startScriptedOpenAIServer(checkScript(() => SLOW_COMMAND));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.kill("SIGKILL");
    await agent.close();
  }
  for (const pid of slowProcesses()) process.kill(pid, "SIGKILL");
  await server.close();
  await ws.cleanup();
});

const env = () => ({ OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" });

async function startTurn(): Promise<{ agent: AcpProcess; sessionId: string }> {
  const agent = startAcp({ cwd: ws.root, env: env() });
  agents.push(agent);
  await agent.agent.request("initialize", { protocolVersion: 1 });
  const { sessionId } = await agent.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
  // Not awaited: the agent goes away before it answers.
  agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Run the slow check" }] }).catch(() => undefined);
  await agent.waitForUpdate((u) => u.sessionUpdate === "tool_call" && u.kind === "execute");
  await expect.poll(() => slowProcesses().length, { timeout: 10_000 }).toBeGreaterThan(0);
  return { agent, sessionId };
}

describe("the editor goes away mid-turn", () => {
  it.each([
    ["closes stdin", (agent: AcpProcess) => agent.close(), 0],
    ["sends SIGTERM", async (agent: AcpProcess) => (agent.child.kill("SIGTERM"), agent.close()), 130],
  ] as const)("%s: the agent exits, its command is killed, and a new agent continues the session", async (_how, goAway, code) => {
    const { agent, sessionId } = await startTurn();
    const stoppedAt = Date.now();
    expect((await goAway(agent)).code).toBe(code);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    await expect.poll(() => slowProcesses(), { timeout: 5_000 }).toEqual([]);
    const [row] = await sessionRows((args) => runCli(args, { cwd: ws.root, env: env() }));
    expect(row).toMatchObject({ id: sessionId, status: "interrupted" });

    const next = startAcp({ cwd: ws.root, env: env() });
    agents.push(next);
    await next.agent.request("initialize", { protocolVersion: 1 });
    await next.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [] });
    expect(updatesOf(next, "plan").at(-1)?.entries[0]?.content).toBe("s1 coder: Run the check");
    const { stopReason } = await next.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Skip the check and finish" }] });
    expect(stopReason).toBe("end_turn");
    expect((await sessionRows((args) => runCli(args, { cwd: ws.root, env: env() })))[0]).toMatchObject({ status: "done", turns: 2 });
  });
});
