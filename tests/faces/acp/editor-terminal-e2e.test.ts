import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpScript } from "../cli/mcp-script.js";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { updatesOf, useAcpAgents } from "./acp-process.js";
import { ClientTerminals } from "./client-terminals.js";

/**
 * An editor that offers terminals: a command's output is shown in one of its terminals, but the command itself still
 * runs in mini-cursor's sandbox. What the editor runs is only the viewer the agent feeds (src/faces/acp/terminal-relay.ts).
 */
const terminals = new ClientTerminals();
const marker = path.join(os.tmpdir(), `mini-cursor-terminal-marker-${process.pid}`);
// /tmp is private in the sandbox: a file made there is not on the host's /tmp.
const command = `touch ${marker}; echo RELAYED-OUTPUT; exit 3`;

// Registered before useAcpAgents, so it runs after its hooks (vitest runs after-hooks in reverse): the agent is gone
// before its terminals are stopped.
afterEach(async () => {
  terminals.stopAll();
  await fs.rm(marker, { force: true });
});
const fx = useAcpAgents(mcpScript([{ name: "execute_command", args: { command } }]));

describe("an editor's terminal over ACP", () => {
  it("shows the command's output live and its exit code, while the command runs in the sandbox, not in the editor", async () => {
    const { server, ws } = fx;
    const acp = fx.start({ env: { MINI_CURSOR_APPROVAL: "auto" }, terminals });
    await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true } });
    const { sessionId } = await acp.agent.request("session/new", { cwd: ws.root, mcpServers: [] });
    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Run it" }] });
    expect(done.stopReason).toBe("end_turn");

    // The model got the command's result as always.
    const result = server.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "execute_command");
    expect(result?.content).toContain("RELAYED-OUTPUT");
    expect(result?.content).toContain("Exit code: 3");

    // One terminal, running the viewer (node -e …), never the command.
    expect([...terminals.terminals.keys()]).toEqual(["term-1"]);
    const terminal = terminals.terminals.get("term-1");
    expect(terminal?.request).toMatchObject({ sessionId, command: process.execPath, cwd: ws.root });
    expect(terminal?.request.args?.[0]).toBe("-e");
    expect(JSON.stringify(terminal?.request)).not.toContain("RELAYED-OUTPUT");
    expect(await terminal?.exit).toEqual({ exitCode: 3, signal: null });
    expect(terminal?.output).toBe("RELAYED-OUTPUT\n");
    await expect(fs.access(marker)).rejects.toThrow();

    // The tool call shows the terminal, to its end; the terminal is released afterwards.
    const call = updatesOf(acp, "tool_call").find((c) => c.kind === "execute");
    const ended = updatesOf(acp, "tool_call_update").find((u) => u.toolCallId === call?.toolCallId && u.status === "failed");
    expect(ended?.content?.[0]).toEqual({ type: "terminal", terminalId: "term-1" });
    await expect.poll(() => terminal?.released, { timeout: 10_000 }).toBe(true);
  });
});
