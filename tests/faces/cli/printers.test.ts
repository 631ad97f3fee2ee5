import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HumanPrinter, type Output } from "../../../src/faces/cli/printers/human.js";
import { JsonPrinter } from "../../../src/faces/cli/printers/json.js";
import type { ProgressEvent } from "../../../src/core/index.js";

class Captured implements Output {
  readonly writes: string[] = [];
  columns?: number;
  constructor(readonly isTTY = false) {}
  write(text: string): void {
    this.writes.push(text);
  }
  get text(): string {
    return this.writes.join("");
  }
}

const ESC = "\u001b[";

describe("HumanPrinter", () => {
  let out: Captured;
  let printer: HumanPrinter;
  beforeEach(() => {
    out = new Captured();
    printer = new HumanPrinter(out);
  });

  it("shows the session, the plan and the step being started", () => {
    printer.emit({ type: "session_started", sessionId: "20260101-000000-abcd", task: "fix the bug", workspace: "/w", resumed: false, model: "m1" });
    printer.emit({
      type: "plan",
      revision: 0,
      steps: [
        { id: "s1", agent: "researcher", goal: "find the bug", status: "done" },
        { id: "s2", agent: "coder", goal: "fix it", status: "pending" },
      ],
    });
    printer.emit({ type: "step_started", stepId: "s2", agent: "coder", goal: "fix it" });
    const lines = out.text.split("\n");
    expect(lines).toContain("mini-cursor session 20260101-000000-abcd");
    expect(lines).toContain("  task: fix the bug");
    expect(lines).toContain("  ✓ s1 researcher find the bug");
    expect(lines).toContain("  · s2 coder      fix it");
    expect(lines).toContain("▶ s2 coder: fix it");
    expect(out.text).not.toContain(ESC);
  });

  it("shows a long task on one line, shortened", () => {
    printer.emit({ type: "session_started", sessionId: "id", task: `${"x".repeat(100_000)}\nmore`, workspace: "/w", resumed: false, model: "m1" });
    const task = out.text.split("\n").filter((l) => l.startsWith("  task: "));
    expect(task).toEqual([`  task: ${"x".repeat(200)}…`]);
    expect(out.text).not.toContain("more");
  });

  it("announces a step once even when a resumed run announces it again", () => {
    const started: ProgressEvent = { type: "step_started", stepId: "s1", agent: "coder", goal: "fix it" };
    printer.emit(started);
    printer.emit({ type: "approval_answered", decision: "approve", detail: "" });
    printer.emit(started);
    printer.emit({ type: "step_finished", stepId: "s1", agent: "coder", status: "done", summary: "ok" });
    expect(out.text.match(/▶ s1 coder: fix it/g)).toHaveLength(1);
  });

  it("shows a tool call with its detail, and only failed results", () => {
    printer.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "read_file", detail: "src/app.ts" });
    printer.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "npm test" });
    printer.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "read_file", ok: true, detail: "120 lines" });
    printer.emit({ type: "tool_result", agent: "coder", stepId: "s1", tool: "edit_file", ok: false, detail: "old text not found" });
    expect(out.text).toBe("  · read_file src/app.ts\n  $ execute_command npm test\n    ! edit_file: old text not found\n");
  });

  it("streams command output with a prefix on every line, even when chunks split lines", () => {
    for (const chunk of ["hel", "lo\nwor", "ld\n", "\n", "a\nb\n"]) {
      printer.emit({ type: "command_output", stream: "stdout", chunk });
    }
    expect(out.text).toBe("    │ hello\n    │ world\n    │ \n    │ a\n    │ b\n");
  });

  it("writes output as it arrives, not only at line ends", () => {
    printer.emit({ type: "command_output", stream: "stdout", chunk: "progress 10%" });
    expect(out.text).toBe("    │ progress 10%");
    printer.emit({ type: "command_output", stream: "stderr", chunk: " 20%" });
    expect(out.text).toBe("    │ progress 10% 20%");
  });

  it("ends an unfinished output line before the next event", () => {
    printer.emit({ type: "command_output", stream: "stdout", chunk: "no newline at end" });
    printer.emit({ type: "step_finished", stepId: "s1", agent: "coder", status: "done", summary: "fixed" });
    expect(out.text).toBe("    │ no newline at end\n  ✓ s1 done: fixed\n");
  });

  it("turns carriage-return progress into separate lines", () => {
    printer.emit({ type: "command_output", stream: "stdout", chunk: "10%\r50%\r100%\r\n" });
    expect(out.text).toBe("    │ 10%\n    │ 50%\n    │ 100%\n");
  });

  it("treats a CRLF split across chunks as one line break", () => {
    printer.emit({ type: "command_output", stream: "stdout", chunk: "one\r" });
    printer.emit({ type: "command_output", stream: "stdout", chunk: "\ntwo\r\n" });
    expect(out.text).toBe("    │ one\n    │ two\n");
  });

  it("shows step results, reviews, limits and notices", () => {
    printer.emit({ type: "step_finished", stepId: "s3", agent: "reviewer", status: "failed", summary: "tests fail" });
    printer.emit({ type: "review", stepId: "s2", decision: "changes_requested", problems: ["missing test", "typo"] });
    printer.emit({ type: "limit_reached", limit: "maxAgentRuns", detail: "12 agent runs" });
    printer.emit({ type: "notice", level: "info", message: "hello" });
    printer.emit({ type: "notice", level: "warn", message: "careful" });
    printer.emit({ type: "model_call", agent: "planner", inputTokens: 1, outputTokens: 2 });
    expect(out.text.split("\n")).toEqual([
      "  ✗ s3 failed: tests fail",
      "  review: changes_requested",
      "    - missing test",
      "    - typo",
      "⚠ limit reached: 12 agent runs",
      "ℹ hello",
      "⚠ careful",
      "",
    ]);
  });

  it("shows the session's running tokens and cost once, at the end of the step", () => {
    const total = { inputTokens: 12_300, outputTokens: 1_100, calls: 3, costUsd: 0.0042, estimated: false };
    printer.emit({
      type: "model_call",
      agent: "coder",
      model: "m",
      inputTokens: 1_000,
      outputTokens: 100,
      estimated: false,
      total: { ...total, inputTokens: 11_300 },
    });
    printer.emit({ type: "model_call", agent: "coder", model: "m", inputTokens: 1_000, outputTokens: 100, estimated: false, total });
    expect(out.text).toBe("");
    printer.emit({ type: "step_finished", stepId: "s1", agent: "coder", status: "done", summary: "fixed" });
    printer.emit({ type: "step_finished", stepId: "s2", agent: "coder", status: "done", summary: "no calls" });
    expect(out.text).toBe("  ✓ s1 done: fixed\n    tokens 12.3k in / 1.1k out · $0.0042\n  ✓ s2 done: no calls\n");
  });

  it("prints the final report and the session status", () => {
    printer.emit({ type: "session_finished", sessionId: "abc", status: "done", report: "## Report\nAll good." });
    expect(out.text).toBe("\n## Report\nAll good.\nsession abc · done\n");
  });

  describe("on a terminal", () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env.NO_COLOR;
      delete process.env.NO_COLOR;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = saved;
    });

    it("colours output, and NO_COLOR turns colour off", () => {
      const tty = new Captured(true);
      new HumanPrinter(tty).emit({ type: "step_started", stepId: "s1", agent: "coder", goal: "g" });
      expect(tty.text).toContain(ESC);
      expect(tty.text).toContain("▶ s1 coder: g");

      process.env.NO_COLOR = "1";
      const plain = new Captured(true);
      new HumanPrinter(plain).emit({ type: "step_started", stepId: "s1", agent: "coder", goal: "g" });
      expect(plain.text).toBe("▶ s1 coder: g\n");
    });
  });

  it("in a log, notes once per command that long output goes on, without redrawing", () => {
    printer.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "make" });
    printer.emit({ type: "command_output", stream: "stdout", chunk: "head\n" });
    printer.emit({ type: "command_output_tail", lines: ["a1"], totalChars: 40_000 });
    printer.emit({ type: "command_output_tail", lines: ["a2"], totalChars: 80_000 });
    expect(out.text.match(/the output goes on/g)).toHaveLength(1);
    expect(out.text).not.toContain("a1");
    expect(out.text).not.toContain(ESC);
    printer.emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "make again" });
    printer.emit({ type: "command_output_tail", lines: ["a3"], totalChars: 40_000 });
    expect(out.text.match(/the output goes on/g)).toHaveLength(2);
  });
});

describe("JsonPrinter", () => {
  const events: ProgressEvent[] = [
    { type: "session_started", sessionId: "id", task: "t\nwith newline", workspace: "/w", resumed: true, model: "m" },
    { type: "command_output", stream: "stderr", chunk: "line1\nline2\n" },
    { type: "tool_call", agent: "coder", stepId: "s1", tool: "write_file", detail: 'a "quoted" path' },
    { type: "session_finished", sessionId: "id", status: "done", report: "# R\n\n- done" },
  ];

  it("writes one parseable JSON object per line with ts from the clock and the event", () => {
    const out = new Captured();
    let t = Date.parse("2026-03-04T05:06:07.000Z");
    const printer = new JsonPrinter(out, { now: () => (t += 1000) - 1000 });
    for (const e of events) printer.emit(e);

    expect(out.writes).toHaveLength(events.length);
    for (const w of out.writes) expect(w.endsWith("\n")).toBe(true);
    const lines = out.text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(events.length);

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    parsed.forEach((obj, i) => {
      expect(obj.ts).toBe(new Date(Date.parse("2026-03-04T05:06:07.000Z") + i * 1000).toISOString());
      expect(obj.type).toBe(events[i]?.type);
      const { ts: _ts, ...rest } = obj;
      expect(rest).toEqual(events[i]);
    });
  });
});
