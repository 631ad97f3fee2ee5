import { runningTotal } from "../../../models/cost/format.js";
import type { EventSink, ProgressEvent, UsageTotals } from "../../../core/index.js";
import { formLines } from "../form-prompt.js";
import { progressLine } from "../../../services/mcp/progress-line.js";

export interface Output {
  write(text: string): void;
  isTTY?: boolean;
  /** Terminal width, to keep redrawn lines from wrapping. */
  columns?: number;
  /** Terminal height (the live view's redrawn block stays within it). */
  rows?: number;
}

const ICON: Record<string, string> = { done: "✓", failed: "✗", skipped: "–", pending: "·", in_progress: "▶" };

/** Progress a person can follow: agent and step, each tool call, command output as it streams, the summary. */
export class HumanPrinter implements EventSink {
  private atLineStart = true;
  /** The last chunk ended in "\r": a "\n" starting the next one completes the same line break. */
  private pendingCR = false;
  private readonly color: boolean;
  /** The session's running usage from the newest model call, shown once at the end of the step. */
  private usage: UsageTotals | null = null;
  /** One note per command that its output continues past the live head. */
  private tailNoted = false;
  /** The step running now: announced once, even if a resumed run announces it again. */
  private activeStep: string | null = null;

  constructor(private readonly out: Output) {
    this.color = Boolean(out.isTTY) && !process.env.NO_COLOR;
  }

  private paint(code: number, text: string): string {
    return this.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  private line(text: string): void {
    if (!this.atLineStart) this.out.write("\n");
    this.out.write(`${text}\n`);
    this.atLineStart = true;
  }

  emit(event: ProgressEvent): void {
    switch (event.type) {
      case "session_started":
        this.line(this.paint(1, `mini-cursor ${event.resumed ? "resuming" : "session"} ${event.sessionId}`));
        this.line(`  task: ${shortTask(event.task)}`);
        this.line(`  workspace: ${event.workspace} · model: ${event.model}`);
        break;
      case "plan":
        this.line(this.paint(36, `◆ plan${event.revision > 0 ? ` (revision ${event.revision})` : ""}`));
        for (const s of event.steps) this.line(`  ${ICON[s.status] ?? "·"} ${s.id} ${s.agent.padEnd(10)} ${s.goal}`);
        break;
      case "step_started":
        if (this.activeStep === event.stepId) break;
        this.activeStep = event.stepId;
        this.line(this.paint(1, `▶ ${event.stepId} ${event.agent}: ${event.goal}`));
        break;
      case "tool_call":
        this.tailNoted = false;
        this.line(this.paint(2, `  ${event.tool === "execute_command" ? "$" : "·"} ${event.tool} ${event.detail}`));
        break;
      case "tool_result":
        if (!event.ok) this.line(this.paint(33, `    ! ${event.tool}: ${event.detail}`));
        break;
      case "command_output":
        this.streamOutput(event.chunk);
        break;
      case "command_output_tail":
        this.noteTail();
        break;
      case "model_call":
        // Not a line per call: that would drown the output. The total shows at step end.
        if (event.total) this.usage = event.total;
        break;
      case "step_finished":
        if (this.activeStep === event.stepId) this.activeStep = null;
        this.line(`${event.status === "done" ? this.paint(32, "  ✓") : this.paint(31, "  ✗")} ${event.stepId} ${event.status}: ${event.summary}`);
        if (this.usage) this.line(this.paint(2, `    ${runningTotal(this.usage)}`));
        this.usage = null;
        break;
      case "review":
        this.line(this.paint(event.decision === "approve" ? 32 : 33, `  review: ${event.decision}`));
        for (const p of event.problems) this.line(`    - ${p}`);
        break;
      case "background_process":
        this.line(this.paint(event.state === "exited" ? 33 : 2, `  ${backgroundProcessLine(event)}`));
        break;
      case "limit_reached":
        this.line(this.paint(33, `⚠ limit reached: ${event.detail}`));
        break;
      case "notice":
        this.line(event.level === "info" ? `ℹ ${event.message}` : this.paint(33, `⚠ ${event.message}`));
        break;
      case "approval_requested":
        this.line(
          this.paint(
            33,
            `? approval needed: ${event.agent} (${event.stepId}) wants to ${event.kind === "command" ? `run in ${event.cwd}:` : event.kind === "tool" ? "call an MCP tool:" : "change a file:"}`,
          ),
        );
        for (const l of event.preview.split("\n")) this.line(`    ${l}`);
        break;
      case "approval_answered":
        this.line(this.paint(2, `  → ${event.decision}${event.detail ? `: ${event.detail}` : ""}`));
        break;
      case "question_asked": {
        const [head = "", ...rest] = questionLines(event);
        this.line(this.paint(33, head));
        for (const l of rest) this.line(l);
        break;
      }
      case "question_answered":
        this.line(this.paint(2, `  → ${event.answer}`));
        break;
      case "tool_progress":
        this.line(this.paint(2, `    ┆ ${event.tool}: ${progressLine(event)}`));
        break;
      case "form_asked": {
        const [head = "", ...rest] = formLines(event);
        this.line(this.paint(33, head));
        for (const l of rest) this.line(l);
        break;
      }
      case "form_answered":
        this.line(this.paint(2, `  → ${event.action === "accept" ? "answered" : event.action === "decline" ? "declined" : "cancelled"}`));
        break;
      case "session_finished":
        this.line("");
        this.line(event.report);
        this.line(this.paint(2, `session ${event.sessionId} · ${event.status}`));
        break;
    }
  }

  /** The plain view cannot redraw: one line per command says the output goes on (its end follows). */
  private noteTail(): void {
    if (!this.tailNoted) this.line(this.paint(2, "    ┆ … the output goes on; its end follows when the command finishes"));
    this.tailNoted = true;
  }

  /** Command output, indented, line by line as it arrives. */
  private streamOutput(chunk: string): void {
    let text = chunk;
    if (this.pendingCR && text.startsWith("\n")) text = text.slice(1);
    this.pendingCR = text.endsWith("\r");
    text = text.replace(/\r\n?/g, "\n");
    let out = "";
    for (const ch of text) {
      if (this.atLineStart) out += this.paint(2, "    │ ");
      out += ch;
      this.atLineStart = ch === "\n";
    }
    this.out.write(out);
  }
}

/** A question as a person reads it: who asks, the question, its numbered choices. */
export function questionLines(event: { agent: string; stepId: string; question: string; choices: readonly string[] }): string[] {
  const who = event.stepId ? `${event.agent} (${event.stepId})` : event.agent;
  return [`? question from ${who}:`, ...event.question.split("\n").map((l) => `    ${l}`), ...event.choices.map((c, i) => `    ${i + 1}. ${c}`)];
}

/** A long task on one line: the whole task is in the session. */
function shortTask(task: string): string {
  const flat = task.replace(/\s*\n\s*/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** One line per background process change, for both views. */
export function backgroundProcessLine(event: Extract<ProgressEvent, { type: "background_process" }>): string {
  const who = `background ${event.name}${event.name === event.id ? "" : ` (${event.id})`}`;
  if (event.state === "started") return `⚙ ${who} started: ${event.detail}`;
  if (event.state === "ready") return `⚙ ${who} ready: ${event.detail}`;
  if (event.state === "exited") return `⚠ ${who} exited on its own: ${event.detail}`;
  return `⚙ ${who} stopped`;
}
