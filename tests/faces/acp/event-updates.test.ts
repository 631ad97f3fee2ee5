import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { EventUpdates } from "../../../src/faces/acp/event-updates.js";
import type { ApprovalRequest } from "../../../src/core/index.js";

/** The mapper with files and time it is handed: a real object, no mocks. */
function mapper(files: Record<string, string | null> = {}) {
  const sent: SessionUpdate[] = [];
  let now = 0;
  const updates = new EventUpdates({ workspace: "/ws", send: (u) => sent.push(u), readText: (file) => files[file] ?? null, now: () => now });
  return { updates, sent, files, tick: (ms: number) => (now += ms) };
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
});
