import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { historyUpdates } from "../../../src/faces/acp/history-updates.js";
import { REPLAY_RESULT_CHARS, threadUpdates, type ReplayCall } from "../../../src/faces/acp/thread-replay.js";
import type { RecordedMessage, RecordedToolCall } from "../../../src/models/recording-codec.js";

let seq = 0;
function call(role: string, step: string | null, tail: RecordedMessage[], toolCalls: RecordedToolCall[], content = ""): ReplayCall {
  seq += 1;
  return {
    seq,
    role,
    step,
    request: { sha: "x", messageCount: tail.length, tools: [], tail },
    response: { content, toolCalls, invalidToolCalls: [] },
  };
}
const tc = (id: string, name: string, args: Record<string, unknown>): RecordedToolCall => ({ id, name, args });
const result = (id: string, name: string, content: string, status = "success"): RecordedMessage => ({ role: "tool", toolCallId: id, name, content, status });
const brief: RecordedMessage = { role: "human", content: "Your step" };

/** Two turns: a plan, reads, a failing command, a write, an MCP call with a long result; then a follow-up. */
function twoTurns(): ReplayCall[] {
  seq = 0;
  return [
    call("planner", null, [brief], [tc("p1", "update_plan", { remainingSteps: [{ agent: "coder", goal: "Write a" }] })]),
    call("coder", "s1", [brief], [tc("c1", "read_file", { path: "a.ts" }), tc("c2", "execute_command", { command: "npm test" })], "Looking first"),
    call(
      "coder",
      "s1",
      [result("c1", "read_file", "old a"), result("c2", "execute_command", "exit code 1", "error")],
      [tc("c1", "write_file", { path: "a.ts", content: "new" })],
    ),
    call("coder", "s1", [result("c1", "write_file", "Wrote a.ts")], [tc("c3", "mcp__files__stat", { target: "a.ts" })]),
    call(
      "coder",
      "s1",
      [result("c3", "mcp__files__stat", "x".repeat(REPLAY_RESULT_CHARS + 500))],
      [tc("c4", "submit_work", { status: "done", summary: "Wrote a" })],
    ),
    call("planner", null, [brief], [tc("p2", "update_plan", { remainingSteps: [], finished: true, summary: "Turn 1 done" })]),
    call("planner", null, [brief], [tc("p3", "update_plan", { remainingSteps: [{ agent: "coder", goal: "Write b" }] })]),
    call("coder", "s2", [brief], [tc("c1", "read_file", { path: "b.ts" })]),
    call("coder", "s2", [result("c1", "read_file", "old b")], [tc("c2", "submit_work", { status: "done", summary: "Wrote b" })]),
    call("planner", null, [brief], [tc("p4", "update_plan", { remainingSteps: [], finished: true, summary: "Turn 2 first done" })]),
    call("reviewer", null, [brief], [tc("r1", "submit_review", { decision: "approve" })]),
    call("planner", null, [brief], [tc("p5", "update_plan", { remainingSteps: [], finished: true, summary: "Turn 2 done" })]),
  ];
}

const plan = [
  { id: "s1", agent: "coder", goal: "Write a", acceptanceCriteria: [], status: "done" as const, result: "" },
  { id: "s2", agent: "coder", goal: "Write b", acceptanceCriteria: [], status: "done" as const, result: "" },
];

function shape(update: SessionUpdate): string {
  if (update.sessionUpdate === "tool_call") return `tool ${update.title} ${update.status}`;
  if (update.sessionUpdate === "plan") return `plan ${update.entries.map((e) => `${e.content}=${e.status}`).join(", ")}`;
  if (update.sessionUpdate !== "user_message_chunk" && update.sessionUpdate !== "agent_message_chunk" && update.sessionUpdate !== "agent_thought_chunk")
    return update.sessionUpdate;
  return `${update.sessionUpdate} ${update.content.type === "text" ? update.content.text.trim() : ""}`;
}

describe("threadUpdates", () => {
  it("replays turn by turn: prompt, plan, each tool call with its result, the step's words, the turn's summary", () => {
    const calls = twoTurns();
    const { updates, lastSummary } = threadUpdates({
      task: "Task",
      calls,
      turns: [{ firstSeq: 7, instruction: "Also b" }],
      plan,
      answers: [],
      workspace: "/ws",
    });
    expect(updates.map(shape)).toEqual([
      "user_message_chunk Task",
      "plan s1 coder: Write a=pending",
      "agent_thought_chunk s1 coder: Write a",
      "agent_thought_chunk Looking first",
      "tool Read a.ts completed",
      "tool Run npm test failed",
      "tool Write a.ts completed",
      'tool mcp__files__stat: {"target":"a.ts"} completed',
      "agent_thought_chunk s1 coder: Wrote a",
      "plan s1 coder: Write a=completed",
      "agent_message_chunk Turn 1 done",
      "user_message_chunk Also b",
      "plan s1 coder: Write a=completed, s2 coder: Write b=pending",
      "agent_thought_chunk s2 coder: Write b",
      "tool Read b.ts completed",
      "agent_thought_chunk s2 coder: Wrote b",
      "plan s1 coder: Write a=completed, s2 coder: Write b=completed",
      // A finish before the final review is a thought: a turn has one report.
      "agent_thought_chunk Turn 2 first done",
      "agent_thought_chunk reviewer: approved",
      "plan s1 coder: Write a=completed, s2 coder: Write b=completed",
      "agent_message_chunk Turn 2 done",
    ]);
    expect(lastSummary).toBe(updates.length - 1);
    const read = updates.find((u) => u.sessionUpdate === "tool_call" && u.title === "Read a.ts");
    expect(read).toMatchObject({ kind: "read", locations: [{ path: "/ws/a.ts" }], content: [{ type: "content", content: { text: "old a" } }] });
    const command = updates.find((u) => u.sessionUpdate === "tool_call" && u.kind === "execute");
    expect(command).toMatchObject({ content: [{ content: { text: "exit code 1" } }] });
    // Ids are unique though the model reused its own call ids.
    const ids = updates.flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("cuts a long result as the live updates do", () => {
    const { updates } = threadUpdates({ task: "Task", calls: twoTurns(), turns: [], plan, answers: [], workspace: "/ws" });
    const mcp = updates.find((u) => u.sessionUpdate === "tool_call" && u.title.startsWith("mcp__"));
    const text =
      mcp?.sessionUpdate === "tool_call" && mcp.content?.[0]?.type === "content" && mcp.content[0].content.type === "text" ? mcp.content[0].content.text : "";
    expect(text.length).toBeLessThan(REPLAY_RESULT_CHARS + 100);
    expect(text).toContain("(500 more characters)");
  });

  it("a call without a recorded result: failed mid-thread, pending when the session stopped at it; questions and answers", () => {
    seq = 0;
    const calls = [
      call("coder", "s1", [brief], [tc("a", "execute_command", { command: "rm x" })]),
      call("coder", "s1", [brief], [tc("b", "execute_command", { command: "rm y" })]),
      call("planner", null, [brief], [tc("q", "ask_user", { question: "Which?" })]),
      call("coder", "s2", [brief], [tc("c", "execute_command", { command: "rm z" })]),
    ];
    const { updates } = threadUpdates({ task: "Task", calls, turns: [], plan: [], answers: [{ question: "Which?", answer: "That" }], workspace: "/ws" });
    expect(updates.map(shape).filter((s) => !s.startsWith("agent_thought"))).toEqual([
      "user_message_chunk Task",
      "tool Run rm x failed",
      "tool Run rm y failed",
      "agent_message_chunk Which?",
      "user_message_chunk That",
      "tool Run rm z pending",
    ]);
  });
});

describe("historyUpdates with a recording", () => {
  const state = { plan, commands: [], filesChanged: [], turn: null, finalReport: "Done: Task\nTurn 2 done\n...", answers: [] };

  it("ends with the final report in place of the last turn's summary", () => {
    const updates = historyUpdates("Task", "done", state, "/ws", { calls: twoTurns(), turns: [{ firstSeq: 7, instruction: "Also b" }], truncated: false });
    const messages = updates.map(shape).filter((s) => s.startsWith("agent_message_chunk"));
    expect(messages).toEqual(["agent_message_chunk Turn 1 done", "agent_message_chunk Done: Task\nTurn 2 done\n..."]);
    expect(shape(updates.at(-1) ?? updates[0]!)).toBe("agent_message_chunk Done: Task\nTurn 2 done\n...");
  });

  it("keeps the summary and says what is open when an approval waits; says where a capped recording stops", () => {
    const updates = historyUpdates("Task", "awaiting_approval", state, "/ws", { calls: twoTurns(), turns: [], truncated: true });
    expect(updates.map(shape).slice(-3)).toEqual([
      "agent_message_chunk Turn 2 done",
      "agent_thought_chunk The recording stopped at its size limit: later calls are not replayed.",
      "agent_message_chunk An approval is open: your next prompt asks it again.",
    ]);
  });

  it("ends with the plan as it stands when the replayed one differs (a step left running)", () => {
    const running = { ...state, plan: [{ ...plan[0]!, status: "in_progress" as const }], finalReport: "" };
    const updates = historyUpdates("Task", "interrupted", running, "/ws", { calls: twoTurns().slice(0, 3), turns: [], truncated: false });
    expect(shape(updates.at(-1) ?? updates[0]!)).toBe("plan s1 coder: Write a=in_progress");
  });
});
