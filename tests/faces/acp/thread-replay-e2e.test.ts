import path from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { processesWith } from "../cli/mcp-script.js";
import { followUpScript } from "../cli/follow-up-script.js";
import { roleOf, TEST_COMMAND } from "../cli/task-script.js";
import {
  startScriptedOpenAIServer,
  toolResults,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
  userText,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { startAcp, type AcpProcess } from "./acp-process.js";

/**
 * `session/load` replays a thread as it happened, turn by turn: each prompt, its plan, every tool call (reads,
 * commands, writes, an MCP tool) with its status and result, and its report; for a thread made in the editor and for
 * one made with `run` and `resume --message`. Two turns against a scripted model; the load is in a new agent process.
 */
const TASK = "Add greet with a test";
const FOLLOW_UP = "Also add farewell(name) in src/farewell.js";
const SUM = "mcp__editor_tools__get-sum";

/** The follow-up script, except that the follow-up's coder reads a file (and, with the editor's server, adds with MCP) before it writes. */
function threadScript(withMcp: boolean) {
  return (req: ScriptedRequest): ScriptedReply => {
    if (roleOf(req) !== "coder" || !/farewell/i.test(userText(req))) return followUpScript(req);
    const steps = [
      { name: "read_file", args: { path: "src/greet.js" } },
      ...(withMcp ? [{ name: SUM, args: { a: 19, b: 23 } }] : []),
      { name: "write_file", args: { path: "src/farewell.js", content: "export const farewell = (name) => `Bye, ${name}!`;\n" } },
      { name: "submit_work", args: { status: "done", summary: "Wrote src/farewell.js." } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  };
}

let server: ScriptedServer;
let ws: TempWorkspace;
let marker = "";
const agents: AcpProcess[] = [];

async function setUp(withMcp: boolean): Promise<void> {
  server = await startScriptedOpenAIServer(threadScript(withMcp));
}
beforeEach(async () => {
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  marker = `acp-thread-${path.basename(ws.root)}`;
});
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.kill("SIGKILL");
    await agent.close();
  }
  for (const pid of await processesWith(marker)) process.kill(pid, "SIGKILL");
  await server.close();
  await ws.cleanup();
});

function start(): AcpProcess {
  const agent = startAcp({ cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto" } });
  agents.push(agent);
  return agent;
}

function textOf(update: SessionUpdate): string {
  if (update.sessionUpdate !== "user_message_chunk" && update.sessionUpdate !== "agent_message_chunk" && update.sessionUpdate !== "agent_thought_chunk")
    return "";
  return update.content.type === "text" ? update.content.text.trim() : "";
}

/** The thread as a person reads it: prompts, plans, tool calls with their status, the agent's messages (not thoughts). */
function thread(updates: readonly SessionUpdate[]): string[] {
  return updates.flatMap((u): string[] => {
    if (u.sessionUpdate === "user_message_chunk") return [`prompt: ${textOf(u)}`];
    if (u.sessionUpdate === "plan") return ["plan"];
    if (u.sessionUpdate === "tool_call") return [`${u.kind} ${u.title.split(":")[0]}: ${u.status}`];
    if (u.sessionUpdate === "agent_message_chunk") return [`report: ${textOf(u).split("\n")[0]}`];
    return [];
  });
}

/** Loads the session in a new agent process and returns what it replayed. */
async function reload(sessionId: string): Promise<SessionUpdate[]> {
  const after = start();
  await after.agent.request("initialize", { protocolVersion: 1 });
  await after.agent.request("session/load", { sessionId, cwd: ws.root, mcpServers: [] });
  return after.updates.map((n) => n.update);
}

const resultOf = (updates: readonly SessionUpdate[], title: string): string => {
  const call = updates.find((u) => u.sessionUpdate === "tool_call" && u.title.startsWith(title));
  return call?.sessionUpdate === "tool_call" ? JSON.stringify(call.content) : "";
};

/** Turn 1 (the greet task: the coder writes and tests, the reviewer reads and tests), then the follow-up's turn. */
const turnOne = [
  `prompt: ${TASK}`,
  "plan",
  "edit Write src/greet.js: completed",
  "edit Write test/greet.test.js: completed",
  `execute Run ${TEST_COMMAND}: completed`,
  "plan",
  "read Read src/greet.js: completed",
  `execute Run ${TEST_COMMAND}: completed`,
  "plan",
  "report: greet() and its test are written; the tests pass.",
];

/**
 * How the follow-up's turn ends after its coder's write: the planner finishes, the final review reads and tests, the
 * planner finishes again: one report.
 */
const followUpEnd = ["plan", "read Read src/greet.js: completed", `execute Run ${TEST_COMMAND}: completed`, "plan", `report: Done: ${TASK}`];

describe("session/load replays the thread in order", () => {
  it("a two-turn thread made in the editor, with an MCP call, reloaded in a new agent process", async () => {
    await setUp(true);
    const before = start();
    await before.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await before.agent.request("session/new", {
      cwd: ws.root,
      mcpServers: [{ name: "editor tools", command: process.execPath, args: [EVERYTHING, "stdio", marker], env: [] }],
    });
    for (const text of [TASK, FOLLOW_UP]) {
      expect((await before.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] })).stopReason).toBe("end_turn");
    }
    expect((await before.close()).code).toBe(0);

    const replayed = await reload(sessionId);
    expect(thread(replayed)).toEqual([
      ...turnOne,
      `prompt: ${FOLLOW_UP}`,
      "plan",
      "read Read src/greet.js: completed",
      `other ${SUM}: completed`,
      "edit Write src/farewell.js: completed",
      ...followUpEnd,
    ]);
    // Each call with its result: the command's output, the MCP tool's answer.
    expect(resultOf(replayed, `Run ${TEST_COMMAND}`)).toMatch(/pass 1/);
    expect(resultOf(replayed, SUM)).toContain("42");
    expect(replayed.at(-1)?.sessionUpdate === "agent_message_chunk" && textOf(replayed.at(-1)!)).toContain(`Follow-up done: ${FOLLOW_UP}`);
  });

  it("a thread made with run and resume --message loads the same way", async () => {
    await setUp(false);
    const cli = (args: string[]) => runCli(args, { cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" } });
    expect((await cli(["run", TASK])).code).toBe(0);
    expect((await cli(["resume", "--message", FOLLOW_UP])).code).toBe(0);
    const [row] = JSON.parse((await cli(["sessions", "--json"])).stdout) as { id: string }[];

    const replayed = await reload(row?.id ?? "");
    expect(thread(replayed)).toEqual([
      ...turnOne,
      `prompt: ${FOLLOW_UP}`,
      "plan",
      "read Read src/greet.js: completed",
      "edit Write src/farewell.js: completed",
      ...followUpEnd,
    ]);
  });
});
