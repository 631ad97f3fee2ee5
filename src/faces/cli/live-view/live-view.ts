import cliSpinners from "cli-spinners";
import { createLogUpdate } from "log-update";
import type { AgentName, EventSink, ProgressEvent, StepStatus, UsageTotals } from "../../../core/index.js";
import { runningTotal } from "../../../models/cost/format.js";
import type { Clock } from "../../../platform/clock.js";
import { backgroundProcessLine, questionLines, type Output } from "../printers/human.js";
import { CommandTail } from "./command-tail.js";
import { formLines } from "../form-prompt.js";
import { progressLine } from "../../../services/mcp/progress-line.js";
import { formatSize, oneLine, sanitize, wrapIndented } from "./layout.js";
import { renderBlock, STEP_ICON } from "./status-block.js";
import { realTicker, type Ticker } from "./ticker.js";

export interface LiveViewOptions {
  clock: Clock;
  ticker?: Ticker;
  /** False with NO_COLOR: still live, without colour codes. */
  color: boolean;
  /** Lines of command output the tail shows. */
  tailLines?: number;
}

/** The longest task shown at the start; the whole task is in the session. */
const TASK_CHARS = 200;
const SPINNER = cliSpinners.dots;

/**
 * The terminal view (stdout is a terminal): finished lines (steps, one line per tool call, results, reviews, plan
 * changes) are printed once and scroll up; below them a small block (status line, plan, the running command's
 * output tail) is redrawn in place by log-update. Approvals stop the redraw so the prompt stands alone.
 */
export class LiveView implements EventSink {
  private readonly log: ReturnType<typeof createLogUpdate>;
  private readonly ticker: Ticker;
  private readonly tailLines: number;
  private startedAt: number | null = null;
  private step: { id: string; agent: AgentName } | null = null;
  private usage: UsageTotals | null = null;
  private plan: { id: string; status: StepStatus }[] = [];
  private command: string | null = null;
  private tail: CommandTail | null = null;
  private frame = 0;
  private stopTicker: (() => void) | null = null;
  /** The block is not drawn: before the session starts, during an approval, after the end. */
  private paused = true;

  constructor(
    private readonly out: Output,
    private readonly options: LiveViewOptions,
  ) {
    this.ticker = options.ticker ?? realTicker;
    this.tailLines = options.tailLines ?? 8;
    // log-update reads only write, columns, rows and isTTY: Output has them (the real stream is process.stdout).
    const stream = {
      write: (text: string) => {
        out.write(text);
        return true;
      },
      // A pseudo-terminal nobody sized (script, some CI runners) reports 0: use the classic 80x24 then.
      get columns() {
        return out.columns || 80;
      },
      get rows() {
        return out.rows || 24;
      },
      isTTY: true,
    };
    this.log = createLogUpdate(stream as unknown as NodeJS.WritableStream, { showCursor: true });
  }

  private get width(): number {
    return Math.max(20, this.out.columns || 80);
  }

  private paint(code: number, text: string): string {
    return this.options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  /** Lines printed once, above the block. */
  private print(lines: string[]): void {
    if (lines.length === 0) return;
    if (this.paused) this.out.write(`${lines.join("\n")}\n`);
    else {
      this.log.persist(lines.join("\n"));
      this.render();
    }
  }

  private render(): void {
    if (this.paused || this.startedAt === null) return;
    const block = renderBlock(
      {
        spinner: SPINNER.frames[this.frame % SPINNER.frames.length] ?? "*",
        elapsedMs: this.options.clock.now() - this.startedAt,
        step: this.step,
        usage: this.usage,
        plan: this.plan,
        command: this.command,
        tail: this.tail,
      },
      this.width,
      (code, text) => this.paint(code, text),
    );
    this.log(block.join("\n"));
  }

  private resume(): void {
    this.paused = false;
    this.stopTicker ??= this.ticker.every(SPINNER.interval, () => {
      this.frame += 1;
      this.render();
    });
    this.render();
  }

  private pause(): void {
    this.stopTicker?.();
    this.stopTicker = null;
    if (!this.paused) this.log.clear();
    this.paused = true;
  }

  emit(event: ProgressEvent): void {
    switch (event.type) {
      case "session_started":
        this.startedAt = this.options.clock.now();
        this.print([
          this.paint(1, `mini-cursor ${event.resumed ? "resuming" : "session"} ${event.sessionId}`),
          `  task: ${oneLine(event.task, Math.min(TASK_CHARS, this.width - 9))}`,
          `  ${oneLine(`workspace: ${event.workspace} · model: ${event.model}`, this.width - 3)}`,
        ]);
        this.resume();
        break;
      case "plan":
        this.plan = event.steps.map((s) => ({ id: s.id, status: s.status }));
        this.print([
          this.paint(36, `◆ plan${event.revision > 0 ? ` (revision ${event.revision})` : ""}`),
          ...event.steps.map((s) => `  ${STEP_ICON[s.status] ?? "·"} ${oneLine(`${s.id} ${s.agent.padEnd(10)} ${s.goal}`, this.width - 5)}`),
        ]);
        break;
      case "step_started":
        // A step is announced once; the same step announced again while it runs (a resumed run) is not news.
        if (this.step?.id === event.stepId) break;
        this.step = { id: event.stepId, agent: event.agent };
        this.setStatus(event.stepId, "in_progress");
        this.print(wrapIndented(`${event.stepId} ${event.agent}: ${event.goal}`, this.width, "▶ ", "  ").map((l) => this.paint(1, l)));
        break;
      case "tool_call":
        this.endCommand();
        this.print([this.paint(2, `  ${event.tool === "execute_command" ? "$" : "·"} ${oneLine(`${event.tool} ${event.detail}`, this.width - 5)}`)]);
        if (event.tool === "execute_command") {
          this.command = oneLine(event.detail, 60);
          this.tail = new CommandTail(this.tailLines);
        }
        break;
      case "command_output":
        (this.tail ??= new CommandTail(this.tailLines)).append(event.chunk);
        this.render();
        break;
      case "command_output_tail":
        (this.tail ??= new CommandTail(this.tailLines)).replace(event.lines, `${formatSize(event.totalChars)} so far`);
        this.render();
        break;
      case "tool_progress":
        // The status block shows the newest report while the tool runs.
        this.command = oneLine(`${event.tool}: ${progressLine(event)}`, 60);
        this.render();
        break;
      case "form_asked":
        this.endCommand();
        // The form's prompts read the answers below: nothing may redraw over them.
        this.pause();
        this.print(formLines(event).map((l, i) => (i === 0 ? this.paint(33, l) : sanitize(l))));
        break;
      case "form_answered":
        this.print([this.paint(2, `  → ${event.action === "accept" ? "answered" : event.action === "decline" ? "declined" : "cancelled"}`)]);
        this.resume();
        break;
      case "tool_result":
        if (event.tool === "execute_command") this.endCommand();
        else this.command = null;
        if (!event.ok) this.print([this.paint(33, `    ! ${oneLine(`${event.tool}: ${event.detail}`, this.width - 7)}`)]);
        break;
      case "model_call":
        if (event.total) this.usage = event.total;
        this.render();
        break;
      case "step_finished": {
        this.endCommand();
        if (this.step?.id === event.stepId) this.step = null;
        this.setStatus(event.stepId, event.status);
        const ok = event.status === "done";
        const lines = wrapIndented(`${event.stepId} ${event.status}: ${event.summary}`, this.width, `  ${ok ? "✓" : "✗"} `, "    ");
        this.print([this.paint(ok ? 32 : 31, lines[0] ?? ""), ...lines.slice(1), ...(this.usage ? [this.paint(2, `    ${runningTotal(this.usage)}`)] : [])]);
        break;
      }
      case "review":
        this.print([
          this.paint(event.decision === "approve" ? 32 : 33, `  review: ${event.decision}`),
          ...event.problems.flatMap((p) => wrapIndented(p, this.width, "    - ", "      ")),
        ]);
        break;
      case "background_process":
        this.print([this.paint(event.state === "exited" ? 33 : 2, `  ${oneLine(backgroundProcessLine(event), this.width - 3)}`)]);
        break;
      case "limit_reached":
        this.print(wrapIndented(`limit reached: ${event.detail}`, this.width, "⚠ ", "  ").map((l) => this.paint(33, l)));
        break;
      case "notice":
        this.print(
          event.level === "info"
            ? wrapIndented(event.message, this.width, "ℹ ", "  ")
            : wrapIndented(event.message, this.width, "⚠ ", "  ").map((l) => this.paint(33, l)),
        );
        break;
      case "approval_requested": {
        this.endCommand();
        // The prompt (src/faces/cli/approval-prompt.ts) reads the answer below: nothing may redraw over it.
        this.pause();
        const what = event.kind === "command" ? `run in ${event.cwd}:` : event.kind === "tool" ? "call an MCP tool:" : "change a file:";
        this.print([
          this.paint(33, `? approval needed: ${event.agent} (${event.stepId}) wants to ${what}`),
          ...event.preview.split("\n").map((l) => `    ${sanitize(l)}`),
        ]);
        break;
      }
      case "question_asked": {
        this.endCommand();
        // The prompt reads the answer below: nothing may redraw over it.
        this.pause();
        const [head = "", ...rest] = questionLines(event);
        this.print([this.paint(33, head), ...rest.map((l) => sanitize(l))]);
        break;
      }
      case "question_answered":
        this.print([this.paint(2, `  → ${oneLine(event.answer, this.width - 6)}`)]);
        this.resume();
        break;
      case "approval_answered":
        this.print([this.paint(2, `  → ${event.decision}${event.detail ? `: ${oneLine(event.detail, this.width - 16)}` : ""}`)]);
        if (event.decision !== "pending") this.resume();
        break;
      case "session_finished":
        this.endCommand();
        this.pause();
        this.print([
          "",
          ...event.report
            .split("\n")
            .flatMap((l) => (l.trim() === "" ? [""] : wrapIndented(l.trimStart(), this.width, leadingSpace(l), `${leadingSpace(l)}  `))),
        ]);
        this.print([this.paint(2, `session ${event.sessionId} · ${event.status}`)]);
        this.log.done();
        break;
    }
  }

  /** The command ended: its last lines stay on screen (bounded), the block forgets it. */
  private endCommand(): void {
    const tail = this.tail;
    this.tail = null;
    this.command = null;
    if (!tail || tail.empty) return;
    const view = tail.view(this.width - 7);
    const earlier =
      view.hidden > 0
        ? [
            this.paint(
              2,
              `    ┆ … ${view.hidden} earlier line${view.hidden === 1 ? "" : "s"}${view.note ? ` (${view.note.replace(" so far", "")} in all)` : ""}`,
            ),
          ]
        : [];
    this.print([...earlier, ...view.lines.map((l) => this.paint(2, "    │ ") + l)]);
  }

  private setStatus(id: string, status: StepStatus): void {
    this.plan = this.plan.map((p) => (p.id === id ? { ...p, status } : p));
  }
}

function leadingSpace(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? "";
}
