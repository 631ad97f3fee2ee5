import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ReadTextFileRequest, WriteTextFileRequest } from "@agentclientprotocol/sdk";
import { runCli } from "../cli/cli-process.js";
import { mcpScript, type McpCall } from "../cli/mcp-script.js";
import { toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { updatesOf, useAcpAgents, type PermissionHandler } from "./acp-process.js";

/**
 * An editor that offers fs/read_text_file and fs/write_text_file (as Zed does): the coder reads the editor's buffers,
 * unsaved changes included, and its writes and edits go to the editor, never to the disk behind its back; the same
 * confinement, protected paths and approvals apply. The editor here keeps buffers in memory and, when `saves`, saves
 * them in place as an editor does (the file keeps its inode; an agent's own atomic write would replace it).
 */
class TestEditor {
  readonly buffers = new Map<string, string>();
  readonly reads: ReadTextFileRequest[] = [];
  readonly writes: WriteTextFileRequest[] = [];
  /** What was on disk at the moment each write arrived. */
  readonly diskAtWrite: (string | null)[] = [];

  constructor(private readonly saves: boolean) {}

  readonly files = {
    read: async (request: ReadTextFileRequest) => {
      this.reads.push(request);
      return { content: this.buffers.get(request.path) ?? (await fs.readFile(request.path, "utf8")) };
    },
    write: async (request: WriteTextFileRequest) => {
      this.writes.push(request);
      this.diskAtWrite.push(await fs.readFile(request.path, "utf8").catch(() => null));
      this.buffers.set(request.path, request.content);
      if (this.saves) await fs.writeFile(request.path, request.content);
    },
  };
}

const FILES = { "package.json": '{ "name": "demo", "type": "module" }\n', "src/value.js": "export const value = 'DISK456';\n" };

// Each test scripts its own coder calls (see `start`).
const fx = useAcpAgents(mcpScript([]), { files: FILES });

/** The agent in the workspace, its coder making `calls`, with `editor`'s buffers; initialized, with a session. */
async function start(calls: McpCall[], editor: TestEditor, approval: "auto" | "ask", onPermission?: PermissionHandler) {
  fx.script = mcpScript(calls);
  const acp = fx.start({ env: { MINI_CURSOR_APPROVAL: approval }, files: editor.files, ...(onPermission ? { onPermission } : {}) });
  await acp.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false } });
  const { sessionId } = await acp.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
  return { server: fx.server, ws: fx.ws, acp, sessionId };
}

/** What the coder was told for each of its calls, in order. */
function coderResults(server: ScriptedServer): string[] {
  const last = server.requests.filter((r) => r.messages.some((m) => m.role === "tool")).at(-1);
  return last ? toolResults(last).map((t) => t.content) : [];
}

describe("the editor's buffers over ACP", () => {
  it("reads come from the buffer, an edit is applied to it and sent as fs/write_text_file; the disk is left to the editor", async () => {
    const editor = new TestEditor(false);
    const calls: McpCall[] = [
      { name: "read_file", args: { path: "src/value.js" } },
      { name: "edit_file", args: { path: "src/value.js", oldText: "BUFFER789", newText: "NEW321" } },
      // mini-cursor's own state and a path outside the workspace stay refused: the editor is never asked.
      { name: "write_file", args: { path: ".mini-cursor/settings.json", content: "{}" } },
      { name: "write_file", args: { path: "../outside.txt", content: "out" } },
    ];
    const { ws, acp, sessionId, server } = await start(calls, editor, "auto");
    const file = path.join(ws.root, "src/value.js");
    editor.buffers.set(file, "export const value = 'BUFFER789';\n");

    const done = await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Change the value" }] });
    expect(done.stopReason).toBe("end_turn");

    const [read, edited, state, outside] = coderResults(server);
    expect(read).toContain("BUFFER789");
    expect(read).not.toContain("DISK456");
    expect(edited).toContain('Edited "src/value.js" through the editor');
    expect(edited).toContain("has not saved it yet");
    expect(state).toMatch(/^Error: /);
    expect(outside).toMatch(/^Error: .*outside the workspace/);

    // The edit was made on the buffer's text and handed to the editor, with the file's real path; nothing else was.
    expect(editor.writes).toEqual([{ sessionId, path: file, content: "export const value = 'NEW321';\n" }]);
    expect(editor.reads.map((r) => r.path)).toEqual([file, file]);
    // The disk is as it was: the editor has not saved.
    expect(await fs.readFile(file, "utf8")).toBe("export const value = 'DISK456';\n");
    await expect(fs.access(path.join(ws.root, "..", "outside.txt"))).rejects.toThrow();

    // The editor's tool call shows the change from the buffer's text, not the disk's.
    const call = updatesOf(acp, "tool_call").find((c) => c.title.includes("src/value.js") && c.kind === "edit");
    const diff = updatesOf(acp, "tool_call_update")
      .filter((u) => u.toolCallId === call?.toolCallId)
      .flatMap((u) => u.content ?? [])
      .find((c) => c.type === "diff");
    expect(diff).toMatchObject({ path: file, oldText: "export const value = 'BUFFER789';\n", newText: "export const value = 'NEW321';\n" });
  });

  it("a write asks first when file changes need approval, goes to the editor once allowed, is saved in place by it and recorded for undo", async () => {
    const editor = new TestEditor(true);
    const calls: McpCall[] = [
      { name: "write_file", args: { path: "src/value.js", content: "export const value = 'WRITTEN';\n" } },
      { name: "write_file", args: { path: "src/refused.js", content: "no\n" } },
    ];
    // Allowed once, then refused; each is asked before the editor hears of the write (writes seen so far: 0, then 1).
    const answers = ["allow_once", "reject_once"];
    const writesWhenAsked: number[] = [];
    const {
      ws,
      acp: agent,
      sessionId,
    } = await start(calls, editor, "ask", () => {
      writesWhenAsked.push(editor.writes.length);
      return { outcome: { outcome: "selected", optionId: answers[writesWhenAsked.length - 1] ?? "reject_once" } };
    });
    await agent.agent.request("session/set_config_option", { sessionId, configId: "approve_file_changes", type: "boolean", value: true });
    const file = path.join(ws.root, "src/value.js");
    const inode = (await fs.stat(file)).ino;
    const done = await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Rewrite the value" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(writesWhenAsked).toEqual([0, 1]);

    expect(editor.writes.map((w) => w.path)).toEqual([file]);
    expect(editor.diskAtWrite).toEqual(["export const value = 'DISK456';\n"]);
    expect(await fs.readFile(file, "utf8")).toBe("export const value = 'WRITTEN';\n");
    // Saved by the editor in place: the agent did not replace the file itself.
    expect((await fs.stat(file)).ino).toBe(inode);
    await expect(fs.access(path.join(ws.root, "src/refused.js"))).rejects.toThrow();

    // undo knows the change: diff shows it and undo puts the disk back.
    await agent.close();
    const env = { OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
    const diff = await runCli(["diff", sessionId], { cwd: ws.root, env });
    expect(diff.stdout).toContain("+export const value = 'WRITTEN';");
    const undo = await runCli(["undo", sessionId], { cwd: ws.root, env });
    expect(undo.code).toBe(0);
    expect(await fs.readFile(file, "utf8")).toBe("export const value = 'DISK456';\n");
  });
});
