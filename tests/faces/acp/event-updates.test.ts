import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { EventUpdates, type CommandTerminal } from "../../../src/faces/acp/event-updates.js";
import type { ApprovalRequest } from "../../../src/core/index.js";

/**
 * The mapper with files, time and (optionally) terminals it is handed: a real object, no mocks. Updates are kept in
 * the order sent; one made later holds the ones after it, as the session's queue does (`settled` waits for them).
 */
function mapper(files: Record<string, string | null> = {}, openTerminal?: () => CommandTerminal) {
  const sent: SessionUpdate[] = [];
  let now = 0;
  let chain: Promise<void> | null = null;
  const updates = new EventUpdates({
    workspace: "/ws",
    send: (u) => {
      if (chain) chain = chain.then(() => void sent.push(u));
      else sent.push(u);
    },
    sendLater: (make) => {
      chain = (chain ?? Promise.resolve()).then(async () => {
        const u = await make();
        if (u) sent.push(u);
      });
    },
    readText: (file) => files[file] ?? null,
    now: () => now,
    ...(openTerminal ? { openTerminal } : {}),
  });
  return { updates, sent, files, tick: (ms: number) => (now += ms), settled: () => chain ?? Promise.resolve() };
}

/** An editor terminal that records what it is given; `id` null: the editor made none. */
function recordingTerminal(id: string | null) {
  const terminal = { id: Promise.resolve(id), written: [] as string[], exit: undefined as number | null | undefined };
  const made: CommandTerminal = {
    id: terminal.id,
    write: (text) => void terminal.written.push(text),
    finish: (code) => void (terminal.exit = code),
  };
  return { terminal, made };
}

const approval: ApprovalRequest = {
  type: "approval",
  kind: "command",
  agent: "coder",
  stepId: "s1",
  tool: "execute_command",
  subject: "npm test",
  cwd: ".",
  preview: "npm test",
  suggestedPattern: "npm test*",
};

describe("progress events as ACP session updates", () => {
  it("the plan follows revisions and each step's start and end", () => {
    const { updates, sent } = mapper();
    updates.emit({
      type: "plan",
      revision: 1,
      steps: [
        { id: "s1", agent: "coder", goal: "Write it", status: "pending" },
        { id: "s2", agent: "reviewer", goal: "Review it", status: "pending" },
      ],
    });
    updates.emit({ type: "step_started", stepId: "s1", agent: "coder", goal: "Write it" });
    updates.emit({ type: "step_finished", stepId: "s1", agent: "coder", status: "failed", summary: "no" });
    const plans = sent.filter((u) => u.sessionUpdate === "plan");
    expect(plans.map((p) => p.entries.map((e) => e.status))).toEqual([
      ["pending", "pending"],
      ["in_progress", "pending"],
      ["completed", "pending"],
    ]);
    expect(plans.at(-1)?.entries[0]?.content).toBe("s1 coder: Write it (failed)");
  });

  it("a file edit is an edit call at the file, completed with the diff of before and after", () => {
    const { updates, sent, files } = mapper({ "/ws/src/a.js": "old\n" });
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "edit_file", detail: "src/a.js" });
    files["/ws/src/a.js"] = "new\n";
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "edit_file", ok: true, detail: "Edited src/a.js" });
    expect(sent[0]).toMatchObject({
      sessionUpdate: "tool_call",
      kind: "edit",
      title: "Edit src/a.js",
      status: "in_progress",
      locations: [{ path: "/ws/src/a.js" }],
    });
    const id = sent[0]?.sessionUpdate === "tool_call" ? sent[0].toolCallId : "";
    expect(sent[1]).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed" });
    expect(sent[1]?.sessionUpdate === "tool_call_update" && sent[1].content).toContainEqual({
      type: "diff",
      path: "/ws/src/a.js",
      oldText: "old\n",
      newText: "new\n",
    });
  });

  it("an approval is a pending call; once approved, the command runs under the same id with its output, throttled", () => {
    const { updates, sent, tick } = mapper();
    const asked = updates.approvalCall(approval);
    expect(asked).toMatchObject({ kind: "execute", status: "pending", title: "Run npm test" });
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "npm test" });
    updates.emit({ type: "command_output", stream: "stdout", chunk: "one\n" });
    tick(300);
    updates.emit({ type: "command_output", stream: "stdout", chunk: "two\n" });
    updates.emit({ type: "command_output", stream: "stdout", chunk: "three\n" });
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "execute_command", ok: false, detail: "exit code 1" });
    const forCall = sent.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === asked.toolCallId);
    expect(forCall.map((u) => ("status" in u ? u.status : undefined))).toEqual(["pending", "in_progress", undefined, "failed"]);
    // Output sent at most every 250 ms while it runs (the first chunk waited, the third came too soon), all of it at the end.
    expect(JSON.stringify(forCall[2])).toContain("one\\ntwo");
    expect(JSON.stringify(forCall[3])).toContain("one\\ntwo\\nthree");
  });

  it("an MCP tool that may change things asks under a title with the tool and its arguments, which it also sends whole", () => {
    const { updates, sent } = mapper();
    const args = { owner: "me", title: "Bug", labels: ["x"] };
    const asked = updates.approvalCall({
      type: "approval",
      kind: "tool",
      agent: "coder",
      stepId: "s1",
      tool: "mcp__github__create_issue",
      subject: "mcp__github__create_issue",
      cwd: ".",
      preview: `mcp__github__create_issue (MCP server github, not read-only)\n${JSON.stringify(args, null, 2)}`,
      suggestedPattern: "mcp__github__create_issue",
      args,
    });
    const title = 'mcp__github__create_issue: {"owner":"me","title":"Bug","labels":["x"]}';
    expect(asked).toMatchObject({ kind: "other", status: "pending", title, rawInput: { tool: "mcp__github__create_issue", arguments: args } });
    expect(sent[0]).toMatchObject({ sessionUpdate: "tool_call", title, rawInput: { arguments: args } });
    // Once approved it runs under the same id, as a read-only MCP tool's call shows (its detail is the arguments).
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "mcp__github__create_issue", detail: JSON.stringify(args) });
    expect(sent.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: asked.toolCallId, title, status: "in_progress" });
  });

  it("a rejected approval ends its pending call failed; a refused call that never ran is one failed call", () => {
    const { updates, sent } = mapper();
    const asked = updates.approvalCall(approval);
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "execute_command", ok: false, detail: "rejected by the user" });
    expect(sent.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: asked.toolCallId, status: "failed" });
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "rm_rf", ok: false, detail: "not available" });
    expect(sent.at(-1)).toMatchObject({ sessionUpdate: "tool_call", kind: "other", status: "failed" });
  });

  it("an approval left open when the run ends (a cancel) ends failed, not pending forever", () => {
    const { updates, sent } = mapper();
    const asked = updates.approvalCall(approval);
    updates.emit({ type: "session_finished", sessionId: "x", status: "awaiting_approval", report: "" });
    expect(sent).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: asked.toolCallId, status: "failed" }));
  });

  it("the report and warnings are the agent's messages; an open approval or question ends the turn without the CLI's words", () => {
    const { updates, sent } = mapper();
    updates.emit({ type: "notice", level: "error", message: "The session stopped: the endpoint is down" });
    updates.emit({ type: "session_finished", sessionId: "x", status: "done", report: "All done." });
    updates.emit({
      type: "session_finished",
      sessionId: "x",
      status: "awaiting_input",
      report: "Waiting for an answer (stdin closed). Answer it with: mini-cursor resume x",
    });
    const messages = sent.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
    expect(messages).toEqual(["⚠ The session stopped: the endpoint is down\n\n", "All done.\n\n"]);
    expect(updates.errorLine).toBe("The session stopped: the endpoint is down");
    expect(updates.finishedStatus).toBe("awaiting_input");
  });

  it("a command's output goes to the editor terminal, which the call shows; the terminal ends with the exit code", async () => {
    const { terminal, made } = recordingTerminal("term-1");
    const { updates, sent, tick, settled } = mapper({}, () => made);
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "npm test" });
    updates.emit({ type: "command_output", stream: "stdout", chunk: "one\n" });
    tick(1000);
    updates.emit({ type: "command_output", stream: "stdout", chunk: "two\n" });
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "execute_command", ok: false, detail: "Exit code: 3.", exitCode: 3 });
    await settled();
    expect(terminal.written).toEqual(["one\n", "two\n"]);
    expect(terminal.exit).toBe(3);
    const id = sent[0]?.sessionUpdate === "tool_call" ? sent[0].toolCallId : "";
    // The call, the terminal in it, and its end with the terminal and the result: no output as text.
    expect(sent.slice(1)).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: id, content: [{ type: "terminal", terminalId: "term-1" }] },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: id,
        status: "failed",
        content: [
          { type: "terminal", terminalId: "term-1" },
          { type: "content", content: { type: "text", text: "Exit code: 3." } },
        ],
        rawOutput: { detail: "Exit code: 3." },
      },
    ]);
  });

  it("an editor that made no terminal gets the output as text, as one without terminals does", async () => {
    const { made } = recordingTerminal(null);
    const { updates, sent, tick, settled } = mapper({}, () => made);
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "npm test" });
    tick(1000);
    updates.emit({ type: "command_output", stream: "stdout", chunk: "one\n" });
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "execute_command", ok: true, detail: "Exit code: 0 (success)", exitCode: 0 });
    await settled();
    const texts = sent.slice(1).map((u) => (u.sessionUpdate === "tool_call_update" ? JSON.stringify(u.content) : ""));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("one");
    expect(texts[1]).toContain("one");
    expect(texts.join("")).not.toContain("terminal");
  });

  it("only commands get a terminal", async () => {
    let opened = 0;
    const { updates, settled } = mapper({ "/ws/a.txt": "a" }, () => ((opened += 1), recordingTerminal("t").made));
    updates.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "read_file", detail: "a.txt" });
    updates.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "read_file", ok: true, detail: "1 line" });
    await settled();
    expect(opened).toBe(0);
  });
});
