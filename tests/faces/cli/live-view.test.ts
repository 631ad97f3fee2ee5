import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { makePrinter, type CliIo } from "../../../src/faces/cli/io.js";
import { LiveView } from "../../../src/faces/cli/live-view/live-view.js";
import type { Ticker } from "../../../src/faces/cli/live-view/ticker.js";
import { HumanPrinter, type Output } from "../../../src/faces/cli/printers/human.js";
import { JsonPrinter } from "../../../src/faces/cli/printers/json.js";
import type { ProgressEvent } from "../../../src/core/index.js";

/** A terminal of a fixed size: what the view writes is rendered by a real terminal emulator into a screen. */
class Screen implements Output {
  readonly isTTY = true;
  readonly raw: string[] = [];
  private readonly term: xterm.Terminal;
  constructor(
    readonly columns = 60,
    readonly rows = 20,
  ) {
    this.term = new xterm.Terminal({ cols: columns, rows, scrollback: 1000, allowProposedApi: true });
  }
  write(text: string): void {
    this.raw.push(text);
    // The view writes "\n"; a terminal's line discipline turns it into "\r\n".
    this.term.write(text.replace(/\n/g, "\r\n"));
  }
  /** Every line so far (scrollback and screen), trailing blank lines dropped. */
  async lines(): Promise<string[]> {
    await new Promise<void>((resolve) => this.term.write("", resolve));
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) out.push((buffer.getLine(i)?.translateToString(true) ?? "").trimEnd());
    while (out.at(-1) === "") out.pop();
    return out;
  }
}

class ManualTicker implements Ticker {
  private ticks: (() => void)[] = [];
  every(_ms: number, tick: () => void): () => void {
    this.ticks.push(tick);
    return () => (this.ticks = this.ticks.filter((t) => t !== tick));
  }
  get running(): boolean {
    return this.ticks.length > 0;
  }
  tick(): void {
    for (const t of this.ticks) t();
  }
}

function setup(o: { columns?: number; color?: boolean } = {}) {
  const screen = new Screen(o.columns ?? 60);
  const ticker = new ManualTicker();
  let now = 1_000_000;
  const view = new LiveView(screen, { clock: { now: () => now }, ticker, color: o.color ?? false });
  const emit = (...events: ProgressEvent[]) => events.forEach((e) => view.emit(e));
  return { screen, ticker, emit, advance: (ms: number) => (now += ms) };
}

const started: ProgressEvent = {
  type: "session_started",
  sessionId: "20260101-000000-abcd",
  task: "fix the bug",
  workspace: "/w",
  resumed: false,
  model: "m1",
};
const step: ProgressEvent = { type: "step_started", stepId: "s1", agent: "coder", goal: "fix it" };
const total = { inputTokens: 12_300, outputTokens: 1_100, calls: 3, costUsd: 0.0042, estimated: false };
const SGR = /\u001b\[[0-9;]*m/;

describe("LiveView", () => {
  it("keeps a status line at the bottom: spinner, elapsed time, step and agent, tokens and cost, the plan", async () => {
    const { screen, ticker, emit, advance } = setup();
    emit(started, {
      type: "plan",
      revision: 0,
      steps: [
        { id: "s1", agent: "coder", goal: "fix it", status: "pending" },
        { id: "s2", agent: "reviewer", goal: "check", status: "pending" },
      ],
    });
    expect((await screen.lines()).slice(-2)).toEqual(["⠋ 0:00 · planner · tokens 0 in / 0 out", "  plan  · s1  · s2"]);
    emit(step, { type: "model_call", agent: "coder", model: "m", inputTokens: 1, outputTokens: 1, total });
    advance(65_000);
    ticker.tick();
    const lines = await screen.lines();
    expect(lines.slice(-2)).toEqual(["⠙ 1:05 · s1 coder · tokens 12.3k in / 1.1k out · $0.0042", "  plan  ▶ s1  · s2"]);
    // Finished lines stay above the block, each printed once.
    expect(lines.filter((l) => l === "▶ s1 coder: fix it")).toHaveLength(1);
    expect(lines.filter((l) => l.includes(" · s1 coder · "))).toHaveLength(1);
  });

  it("shows one line per tool call and the running command's output as a bounded tail", async () => {
    const { screen, emit } = setup();
    emit(started, step);
    emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "read_file", detail: `src/${"deep/".repeat(20)}app.ts` });
    emit({ type: "tool_call", agent: "coder", stepId: "s1", tool: "execute_command", detail: "npm test" });
    const output = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    emit({ type: "command_output", stream: "stdout", chunk: `${output}\npartial \u001b[31mred` });
    let lines = await screen.lines();
    expect(lines.filter((l) => l.startsWith("  · read_file src/deep/"))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith("  · read_file"))).toMatch(/…$/);
    const tail = lines.filter((l) => l.startsWith("    │ "));
    expect(tail).toEqual([...[24, 25, 26, 27, 28, 29, 30].map((n) => `    │ line ${n}`), "    │ partial red"]);
    expect(lines).toContain("    ┆ … 23 earlier lines");
    expect(lines.at(-1)).toMatch(/· s1 coder · .* · \$ npm test$/);

    // A long output's rolling tail replaces what is shown, with its size.
    emit({ type: "command_output_tail", lines: ["b1", "b2"], totalChars: 2_500_000 });
    lines = await screen.lines();
    expect(lines.filter((l) => l.startsWith("    │ "))).toEqual(["    │ b1", "    │ b2"]);
    expect(lines.some((l) => l.startsWith("    ┆ … 2.5 MB so far"))).toBe(true);

    // When it ends, its last lines stay (bounded) and the status line forgets it.
    emit(
      { type: "command_output", stream: "stdout", chunk: "\nthe end\n" },
      { type: "tool_result", agent: "coder", stepId: "s1", tool: "execute_command", ok: false, detail: "exit 1" },
    );
    lines = await screen.lines();
    expect(lines.filter((l) => l.startsWith("    │"))).toEqual(["    │ b1", "    │ b2", "    │", "    │ the end"]);
    expect(lines).toContain("    ! execute_command: exit 1");
    expect(lines.at(-1)).not.toContain("$ npm test");
  });

  it("stops redrawing during an approval and does not reprint the step header afterwards", async () => {
    const { screen, ticker, emit } = setup();
    emit(started, step);
    emit({
      type: "approval_requested",
      kind: "command",
      tool: "execute_command",
      agent: "coder",
      stepId: "s1",
      subject: "rm -rf build",
      cwd: ".",
      preview: "rm -rf build",
      suggestedPattern: "rm *",
    });
    expect(ticker.running).toBe(false);
    // The prompt (written by the approval prompter) follows the request with nothing redrawn under it.
    screen.write("Approve? > ");
    const before = screen.raw.length;
    ticker.tick();
    expect(screen.raw.length).toBe(before);
    let lines = await screen.lines();
    expect(lines.slice(-3)).toEqual(["? approval needed: coder (s1) wants to run in .:", "    rm -rf build", "Approve? >"]);
    expect(lines.some((l) => l.includes(" · s1 coder · "))).toBe(false);

    screen.write("y\n");
    // A resumed run announcing its step again while it runs.
    emit({ type: "approval_answered", decision: "approve", detail: "" }, step);
    expect(ticker.running).toBe(true);
    lines = await screen.lines();
    expect(lines.filter((l) => l === "▶ s1 coder: fix it")).toHaveLength(1);
    expect(lines).toContain("  → approve");
    expect(lines.at(-1)).toMatch(/· s1 coder · /);
  });

  it("stops redrawing while a question waits, shows its numbered choices, and goes on after the answer", async () => {
    const { screen, ticker, emit } = setup();
    emit(started, step);
    emit({ type: "question_asked", agent: "coder", stepId: "s1", question: "Which greeting?", choices: ["Hello", "Good morning"] });
    expect(ticker.running).toBe(false);
    screen.write("Your answer > ");
    const before = screen.raw.length;
    ticker.tick();
    expect(screen.raw.length).toBe(before);
    let lines = await screen.lines();
    expect(lines.slice(-5)).toEqual(["? question from coder (s1):", "    Which greeting?", "    1. Hello", "    2. Good morning", "Your answer >"]);
    screen.write("2\n");
    emit({ type: "question_answered", answer: "Good morning" });
    expect(ticker.running).toBe(true);
    lines = await screen.lines();
    expect(lines).toContain("  → Good morning");
  });

  it("wraps and indents model text to the width, and shows a long task on one line", async () => {
    const { screen, emit } = setup({ columns: 40 });
    emit({ ...started, task: `${"do this and that ".repeat(6000)}\nsecond line` });
    emit({
      type: "step_finished",
      stepId: "s1",
      agent: "coder",
      status: "done",
      summary: "Changed the parser so that quoted strings keep their spaces, and added tests.",
    });
    emit({ type: "review", stepId: "s2", decision: "changes_requested", problems: ["the new test does not cover an empty string, which the task asked for"] });
    emit({
      type: "session_finished",
      sessionId: "abc",
      status: "done",
      report: "Done: the task\n  ✓ s1 [coder] a very long step goal that goes on and on past the edge",
    });
    const lines = await screen.lines();
    const task = lines.filter((l) => l.startsWith("  task: "));
    expect(task).toHaveLength(1);
    expect(task[0]).toMatch(/…$/);
    expect(lines.indexOf("  ✓ s1 done: Changed the parser so that")).toBeGreaterThan(-1);
    const summary = lines.slice(lines.indexOf("  ✓ s1 done: Changed the parser so that") + 1, lines.indexOf("  review: changes_requested"));
    expect(summary.length).toBeGreaterThan(1);
    for (const l of summary) expect(l).toMatch(/^ {4}\S/);
    const review = lines.indexOf("  review: changes_requested");
    expect(lines.slice(review + 1, review + 4)).toEqual(["    - the new test does not cover an", "      empty string, which the task asked", "      for"]);
    expect(lines).toContain("  ✓ s1 [coder] a very long step goal");
    expect(lines).toContain("    that goes on and on past the edge");
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(40);
  });

  it("ends with the report and no status block, and stops the timer", async () => {
    const { screen, ticker, emit } = setup();
    emit(started, step, { type: "session_finished", sessionId: "abc", status: "done", report: "Done: fix the bug" });
    expect(ticker.running).toBe(false);
    const lines = await screen.lines();
    expect(lines.slice(-3)).toEqual(["", "Done: fix the bug", "session abc · done"]);
    expect(lines.some((l) => l.includes(" · planner · ") || l.includes(" · s1 coder · "))).toBe(false);
  });

  it("colours on a terminal, and not at all without colour (NO_COLOR), while staying live", async () => {
    const coloured = setup({ color: true });
    coloured.emit(started, step);
    expect(coloured.screen.raw.join("")).toMatch(SGR);
    const plain = setup({ color: false });
    plain.emit(started, step);
    plain.ticker.tick();
    expect(plain.screen.raw.join("")).not.toMatch(SGR);
    expect((await plain.screen.lines()).at(-1)).toMatch(/^⠙ 0:00 · s1 coder/);
  });
});

describe("makePrinter", () => {
  const io = (isTTY: boolean, env: NodeJS.ProcessEnv = {}): CliIo => ({
    stdin: process.stdin,
    stdout: { write: () => undefined, isTTY },
    stderr: { write: () => undefined },
    env,
    cwd: "/",
  });
  const clock = { now: () => 0 };
  it("gives a terminal the live view, a pipe or TERM=dumb plain lines, --json JSON lines", () => {
    expect(makePrinter(false, io(true), clock)).toBeInstanceOf(LiveView);
    expect(makePrinter(false, io(true, { NO_COLOR: "1" }), clock)).toBeInstanceOf(LiveView);
    expect(makePrinter(false, io(false), clock)).toBeInstanceOf(HumanPrinter);
    expect(makePrinter(false, io(true, { TERM: "dumb" }), clock)).toBeInstanceOf(HumanPrinter);
    expect(makePrinter(true, io(true), clock)).toBeInstanceOf(JsonPrinter);
  });
});

describe("a terminal that reports no size (an unsized pseudo-terminal)", () => {
  it("lays out for 80 columns and still prints every finished line", () => {
    const writes: string[] = [];
    const unsized: Output = { isTTY: true, columns: 0, rows: 0, write: (t) => void writes.push(t) };
    const view = new LiveView(unsized, { clock: { now: () => 0 }, ticker: new ManualTicker(), color: false });
    view.emit(started);
    view.emit({ type: "plan", revision: 0, steps: [{ id: "s1", agent: "coder", goal: "write the greeting function and its unit test", status: "pending" }] });
    view.emit({ type: "step_started", stepId: "s1", agent: "coder", goal: "write the greeting function and its unit test" });
    const text = writes.join("");
    expect(text).toContain("s1 coder      write the greeting function and its unit test");
    expect(text).toContain("▶ s1 coder: write the greeting function and its unit test");
  });
});
