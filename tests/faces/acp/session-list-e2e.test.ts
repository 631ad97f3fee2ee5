import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionDatabase } from "../../../src/sessions/database.js";
import { runCli } from "../cli/cli-process.js";
import { greetScript } from "../cli/task-script.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { manualClock } from "../../sessions/undo/helpers.js";
import { startAcp, type AcpProcess } from "./acp-process.js";

/** session/list through `mini-cursor acp` and the SDK's client: the sessions of a workspace, whichever face ran them. */
let server: ScriptedServer;
let ws: TempWorkspace;
let other: TempWorkspace;
const agents: AcpProcess[] = [];

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  other = await makeTempWorkspace();
});
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.kill("SIGKILL");
    await agent.close();
  }
  await server.close();
  await Promise.all([ws.cleanup(), other.cleanup()]);
});

const env = () => ({ OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" });

async function started(cwd: string): Promise<AcpProcess> {
  const acp = startAcp({ cwd, env: env() });
  agents.push(acp);
  const init = await acp.agent.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
  return acp;
}

describe("session/list", () => {
  it("lists a workspace's sessions newest first, those of the CLI and of the editor alike, with cwd, title and time", async () => {
    const cli = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env: env() });
    expect(cli.code, cli.stderr).toBe(0);
    const acp = await started(ws.root);
    const created = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
    const prompt = await acp.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "Add greet again" }] });
    expect(prompt.stopReason).toBe("end_turn");

    const listed = await acp.agent.request("session/list", { cwd: ws.root });
    expect(listed.nextCursor ?? undefined).toBeUndefined();
    expect(listed.sessions.map((s) => [s.cwd, s.title])).toEqual([
      [ws.root, "Add greet again"],
      [ws.root, "Add greet with a test"],
    ]);
    expect(listed.sessions[0]?.sessionId).toBe(created.sessionId);
    for (const s of listed.sessions) expect(Date.parse(s.updatedAt ?? "")).toBeGreaterThan(Date.now() - 120_000);
    // Without cwd: the folder the editor started the agent in.
    expect((await acp.agent.request("session/list", {})).sessions.map((s) => s.sessionId)).toEqual(listed.sessions.map((s) => s.sessionId));
    // Another folder: its own (none), and nothing created there.
    expect(await acp.agent.request("session/list", { cwd: other.root })).toEqual({ sessions: [] });
  });

  it("pages through many sessions with nextCursor, and refuses a cursor it did not give with one line", async () => {
    const clock = manualClock();
    const database = openSessionDatabase(ws.root, clock);
    try {
      for (let i = 0; i < 120; i++) {
        database.sessions.create({
          id: `20261203-150000-${i.toString(16).padStart(4, "0")}`,
          task: `task ${i}`,
          workspace: ws.root,
          model: "scripted",
          options: "{}",
        });
        clock.advance(1_000);
      }
    } finally {
      database.close();
    }
    const acp = await started(other.root);
    const titles: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await acp.agent.request("session/list", { cwd: ws.root, ...(cursor ? { cursor } : {}) });
      titles.push(...page.sessions.map((s) => s.title ?? ""));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(titles).toEqual(Array.from({ length: 120 }, (_, i) => `task ${119 - i}`));
    await expect(acp.agent.request("session/list", { cwd: ws.root, cursor: "not-ours" })).rejects.toThrow(/unknown cursor "not-ours"/);
    await expect(acp.agent.request("session/list", { cwd: "relative/dir" })).rejects.toThrow(/cwd must be an absolute path/);
  });
});
