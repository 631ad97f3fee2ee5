import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { FAREWELL_SOURCE, followUpScript, sessionRows } from "../cli/follow-up-script.js";
import { GREET_SOURCE, GREET_TEST, TEST_COMMAND } from "../cli/task-script.js";
import { agentText, updatesOf, useAcpAgents } from "./acp-process.js";

/**
 * An editor drives mini-cursor over ACP: the SDK's client in this process, `mini-cursor acp` from the build as a
 * child process, the model a scripted OpenAI-compatible server on 127.0.0.1.
 */
const fx = useAcpAgents(followUpScript);

const cli = (args: string[]) => runCli(args, { cwd: fx.ws.root, env: { OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted" } });

describe("mini-cursor acp with a real ACP client", () => {
  it("initialize, a new session, a prompt whose commands need permission, the updates, end_turn; then a follow-up prompt", async () => {
    const acp = fx.start();
    const init = await acp.agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { embeddedContext: true } });

    const created = await acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    expect(created.modes).toMatchObject({ currentModeId: "ask" });
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto", "read-only"]);

    const first = await acp.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "Add greet with a test" }] });
    expect(first.stopReason).toBe("end_turn");
    expect(await fs.readFile(path.join(fx.ws.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(await fs.readFile(path.join(fx.ws.root, "test/greet.test.js"), "utf8")).toBe(GREET_TEST);

    // Each command asked through session/request_permission, naming the pending tool call, with our three answers.
    // Allowed once: the coder's test run asked; the reviewer's, read-only in the sandbox with no network, did not.
    expect(acp.permissions).toHaveLength(1);
    const asked = acp.permissions[0];
    expect(asked?.toolCall).toMatchObject({ kind: "execute", status: "pending", title: `Run ${TEST_COMMAND}` });
    expect(asked?.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);

    // The plan, with statuses; the last one has every step completed.
    const plans = updatesOf(acp, "plan");
    expect(plans.length).toBeGreaterThanOrEqual(2);
    expect(plans[0]?.entries.map((e) => e.status)).toContain("pending");
    expect(plans.at(-1)?.entries.every((e) => e.status === "completed")).toBe(true);

    // The file edit: a tool call of kind edit at the file, completed with its diff.
    const calls = updatesOf(acp, "tool_call");
    const write = calls.find((c) => c.title === "Write src/greet.js");
    expect(write).toMatchObject({ kind: "edit", status: "in_progress", locations: [{ path: path.join(fx.ws.root, "src/greet.js") }] });
    const written = updatesOf(acp, "tool_call_update").find((u) => u.toolCallId === write?.toolCallId && u.status === "completed");
    expect(written?.content).toContainEqual({ type: "diff", path: path.join(fx.ws.root, "src/greet.js"), oldText: null, newText: GREET_SOURCE });

    // The command: the permission's tool call runs under the same id and ends completed with its output.
    const ran = updatesOf(acp, "tool_call_update").filter((u) => u.toolCallId === asked?.toolCall.toolCallId);
    expect(ran.map((u) => u.status)).toContain("in_progress");
    const finished = ran.find((u) => u.status === "completed");
    const output = finished?.content?.map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")).join("\n") ?? "";
    expect(output).toMatch(/pass 1/);

    // The final report is the agent's message.
    expect(agentText(acp)).toContain("greet() and its test are written");

    const second = await acp.agent.request("session/prompt", {
      sessionId: created.sessionId,
      prompt: [{ type: "text", text: "Also add farewell(name) in src/farewell.js" }],
    });
    expect(second.stopReason).toBe("end_turn");
    expect(await fs.readFile(path.join(fx.ws.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    // One session, two turns: the CLI sees it like any other.
    const rows = await sessionRows(cli);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created.sessionId, status: "done", turns: 2, latestInstruction: "Also add farewell(name) in src/farewell.js" });
    // Logs go to stderr, and a session that goes well has none at the default level.
    expect(acp.stderr()).toBe("");
  });

  it("session/load after the agent process restarted: the history is replayed and the next prompt follows up", async () => {
    const before = fx.start();
    await before.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await before.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    await before.agent.request("session/set_mode", { sessionId, modeId: "auto" });
    expect((await before.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add greet with a test" }] })).stopReason).toBe(
      "end_turn",
    );
    expect(before.permissions).toHaveLength(0);
    expect((await before.close()).code).toBe(0);

    const after = fx.start();
    await after.agent.request("initialize", { protocolVersion: 1 });
    const loaded = await after.agent.request("session/load", { sessionId, cwd: fx.ws.root, mcpServers: [] });
    // The mode chosen in the editor is the session's.
    expect(loaded?.modes?.currentModeId).toBe("auto");
    const users = updatesOf(after, "user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
    expect(users).toContain("Add greet with a test");
    expect(
      updatesOf(after, "plan")
        .at(-1)
        ?.entries.every((e) => e.status === "completed"),
    ).toBe(true);
    expect(updatesOf(after, "tool_call").map((c) => c.title)).toEqual(expect.arrayContaining([`Run ${TEST_COMMAND}`, "Write src/greet.js"]));
    expect(agentText(after)).toContain("greet() and its test are written");

    const next = await after.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Also add farewell(name) in src/farewell.js" }] });
    expect(next.stopReason).toBe("end_turn");
    expect(await fs.readFile(path.join(fx.ws.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    expect((await sessionRows(cli))[0]).toMatchObject({ id: sessionId, turns: 2, status: "done" });
  });
});
