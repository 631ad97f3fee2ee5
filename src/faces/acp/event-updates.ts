import type { SessionUpdate, ToolCallContent, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { ApprovalRequest, EventSink, PlanStepView, ProgressEvent, StepStatus } from "../../core/index.js";
import { planEntries } from "./plan-entries.js";
import { isFileEdit, toolView, workspacePath } from "./tool-view.js";
import { progressLine } from "../../services/mcp/progress-line.js";

/** A command's output shown in an editor terminal (src/faces/acp/terminal-relay.ts). */
export interface CommandTerminal {
  /** The terminal's id, or null when the editor made none (the output then goes as text). */
  readonly id: Promise<string | null>;
  write(text: string): void;
  finish(exitCode: number | null): void;
}

export interface EventUpdateDeps {
  workspace: string;
  send(update: SessionUpdate): void;
  /** Sends what `make` settles to (nothing for null) in its place in the order: updates sent after it wait for it. */
  sendLater(make: () => Promise<SessionUpdate | null>): void;
  /** An editor terminal for a command's output, when the editor offers terminals. */
  openTerminal?(): CommandTerminal;
  /** A file's text now, or null (missing, unreadable, too large): the two sides of an edit's diff. */
  readText(file: string): string | null;
  now(): number;
}

/** A tool call the editor has been told about and that has not finished. */
interface OpenCall {
  id: string;
  tool: string;
  detail: string;
  /** An edit's file and its text before the edit (null: it did not exist). */
  edit?: { path: string; before: string | null };
  output: string;
  tail: { lines: string[]; totalChars: number } | null;
  flushedAt: number;
  /** The editor terminal showing a command's output live. */
  terminal?: CommandTerminal;
}

/** Live command output goes to the editor at most this often (and once more when the command ends). */
const OUTPUT_EVERY_MS = 250;

const text = (value: string) => ({ type: "text" as const, text: value });

/**
 * The session's progress events as ACP `session/update`s: the plan, tool calls with their kind, title, files, live
 * command output, the diff of each file edit and how each ended, and the planner's words (the final report, stops
 * and warnings) as agent messages; step starts, results and reviews as thoughts. Tool calls of one reply run one
 * after another (src/agents/middleware/loop-guard.ts), so at most one is open. An approval is announced as a pending tool call
 * (its id is what `session/request_permission` names); the call that runs once it is approved keeps that id.
 */
export class EventUpdates implements EventSink {
  private count = 0;
  /** The plan as the editor shows it: revisions replace it, step starts and ends change a step's status. */
  private plan: PlanStepView[] = [];
  private open: OpenCall | null = null;
  private awaiting: OpenCall | null = null;
  /** The status the last run of this session ended with, and the line of the error that stopped it, if one did. */
  finishedStatus: string | null = null;
  errorLine: string | null = null;

  constructor(private readonly deps: EventUpdateDeps) {}

  emit(event: ProgressEvent): void {
    switch (event.type) {
      case "session_started":
        this.finishedStatus = null;
        this.errorLine = null;
        return this.think(`Session ${event.sessionId} (${event.model})`);
      case "plan":
        this.plan = event.steps.map((step) => ({ ...step }));
        return this.sendPlan();
      case "step_started":
        this.setStep(event.stepId, "in_progress");
        return this.think(`${event.stepId} ${event.agent}: ${event.goal}`);
      case "step_finished":
        this.setStep(event.stepId, event.status);
        return this.think(`${event.stepId} ${event.agent} ${event.status}: ${event.summary}`);
      case "review":
        return this.think(`Review of ${event.stepId}: ${event.decision === "approve" ? "approved" : `changes requested (${event.problems.join("; ")})`}`);
      case "tool_call":
        return this.started(event.tool, event.detail);
      case "tool_result":
        return this.ended(event.tool, event.detail, event.ok, event.exitCode);
      case "command_output":
        if (!this.open) return;
        this.open.output += event.chunk;
        this.open.terminal?.write(event.chunk);
        return this.flushOutput();
      case "command_output_tail":
        if (!this.open) return;
        this.open.tail = { lines: event.lines, totalChars: event.totalChars };
        return this.flushOutput();
      case "tool_progress":
        // A long MCP tool's newest report, in place of the call's content until it ends.
        if (!this.open) return;
        return this.deps.send({
          sessionUpdate: "tool_call_update",
          toolCallId: this.open.id,
          content: [{ type: "content", content: text(progressLine(event)) }],
        });
      case "limit_reached":
        return this.say(`Limit reached (${event.limit}): ${event.detail}`);
      case "notice":
        if (event.level === "error") this.errorLine = event.message;
        return event.level === "info" ? this.think(event.message) : this.say(`⚠ ${event.message}`);
      case "question_answered":
        return this.think(`Answer: ${event.answer}`);
      case "session_finished":
        this.finishedStatus = event.status;
        this.closeLeftovers();
        // The CLI's words for these name stdin and `resume`; in an editor the next prompt continues.
        if (event.status === "awaiting_approval") return this.say("The approval is still open: your next prompt asks it again.");
        if (event.status === "awaiting_input") return;
        return this.say(event.report);
      default:
        // model_call (usage), approvals and questions (the prompter shows those), answers to approvals.
        return;
    }
  }

  /** An approval request as a pending tool call; returns what `session/request_permission` names. */
  approvalCall(request: ApprovalRequest): ToolCallUpdate {
    const id = this.nextId(request.stepId);
    // An MCP tool's subject is its own name: the title shows its arguments instead, as a call that needs no approval does.
    const detail = request.kind === "tool" && request.args ? argumentsLine(request.args) : request.subject;
    const view = toolView(request.tool, detail, this.deps.workspace);
    this.awaiting = { id, tool: request.tool, detail, output: "", tail: null, flushedAt: 0 };
    const content: ToolCallContent[] = request.preview ? [{ type: "content", content: text(request.preview) }] : [];
    const rawInput =
      request.kind === "tool" && request.args
        ? { tool: request.tool, arguments: request.args }
        : { tool: request.tool, subject: request.subject, cwd: request.cwd };
    this.deps.send({ sessionUpdate: "tool_call", toolCallId: id, ...view, status: "pending", content, rawInput });
    return { toolCallId: id, title: view.title, kind: view.kind, status: "pending", locations: view.locations, content, rawInput };
  }

  /** Text from the agent: the final report, a question, a warning. */
  say(message: string): void {
    this.deps.send({ sessionUpdate: "agent_message_chunk", content: text(`${message}\n\n`) });
  }

  private setStep(stepId: string, status: StepStatus): void {
    const step = this.plan.find((s) => s.id === stepId);
    if (!step || step.status === status) return;
    step.status = status;
    this.sendPlan();
  }

  private sendPlan(): void {
    this.deps.send({ sessionUpdate: "plan", entries: planEntries(this.plan) });
  }

  private think(message: string): void {
    this.deps.send({ sessionUpdate: "agent_thought_chunk", content: text(`${message}\n`) });
  }

  private nextId(stepId: string): string {
    this.count += 1;
    return `${stepId || "call"}-${this.count}`;
  }

  private started(tool: string, detail: string): void {
    const view = toolView(tool, detail, this.deps.workspace);
    const edit = isFileEdit(tool)
      ? { path: workspacePath(this.deps.workspace, detail), before: this.deps.readText(workspacePath(this.deps.workspace, detail)) }
      : undefined;
    const approved = this.awaiting?.tool === tool ? this.awaiting : null;
    this.awaiting = null;
    const id = approved?.id ?? this.nextId("call");
    // A command's output goes to an editor terminal when the editor has them; the command stays in the sandbox.
    const terminal = tool === "execute_command" ? this.deps.openTerminal?.() : undefined;
    this.open = { id, tool, detail, output: "", tail: null, flushedAt: this.deps.now(), ...(edit ? { edit } : {}), ...(terminal ? { terminal } : {}) };
    if (approved) this.deps.send({ sessionUpdate: "tool_call_update", toolCallId: id, ...view, status: "in_progress" });
    else this.deps.send({ sessionUpdate: "tool_call", toolCallId: id, ...view, status: "in_progress", rawInput: { tool, detail } });
    if (terminal) {
      this.deps.sendLater(async () => {
        const terminalId = await terminal.id;
        return terminalId === null ? null : { sessionUpdate: "tool_call_update", toolCallId: id, content: [{ type: "terminal", terminalId }] };
      });
    }
  }

  private ended(tool: string, detail: string, ok: boolean, exitCode?: number | null): void {
    const call = this.open?.tool === tool ? this.open : this.awaiting?.tool === tool ? this.awaiting : null;
    if (call === this.open) this.open = null;
    else if (call === this.awaiting) this.awaiting = null;
    const status = ok ? "completed" : "failed";
    if (!call) {
      // Refused before it ran (not available, bad arguments, a rule): one finished call.
      const view = toolView(tool, "", this.deps.workspace);
      this.deps.send({
        sessionUpdate: "tool_call",
        toolCallId: this.nextId("call"),
        ...view,
        status,
        content: [{ type: "content", content: text(detail) }],
        rawOutput: { detail },
      });
      return;
    }
    const content: ToolCallContent[] = [];
    if (call.edit && ok) {
      const after = this.deps.readText(call.edit.path);
      if (after !== null) content.push({ type: "diff", path: call.edit.path, oldText: call.edit.before, newText: after });
    }
    const output: ToolCallContent[] = call.output || call.tail ? [{ type: "content", content: text(outputBlock(call)) }] : [];
    const result: ToolCallContent[] = detail ? [{ type: "content", content: text(detail) }] : [];
    const { terminal } = call;
    if (!terminal) {
      this.deps.send({ sessionUpdate: "tool_call_update", toolCallId: call.id, status, content: [...content, ...output, ...result], rawOutput: { detail } });
      return;
    }
    if (call.tail) terminal.write(`\n… ${call.tail.totalChars} characters in all; the newest lines:\n${call.tail.lines.join("\n")}\n`);
    terminal.finish(exitCode ?? null);
    // The terminal keeps showing the output once released; without one, the output goes as text.
    this.deps.sendLater(async () => {
      const terminalId = await terminal.id;
      const shown: ToolCallContent[] = terminalId === null ? output : [{ type: "terminal", terminalId }];
      return { sessionUpdate: "tool_call_update", toolCallId: call.id, status, content: [...content, ...shown, ...result], rawOutput: { detail } };
    });
  }

  /** Calls still open when the run ends (an approval left unanswered by a cancel) end failed, saying why. */
  private closeLeftovers(): void {
    for (const call of [this.awaiting, this.open]) {
      if (!call) continue;
      call.terminal?.finish(null);
      this.deps.send({
        sessionUpdate: "tool_call_update",
        toolCallId: call.id,
        status: "failed",
        content: [{ type: "content", content: text("Not run: the turn ended first.") }],
      });
    }
    this.awaiting = null;
    this.open = null;
  }

  private flushOutput(): void {
    const call = this.open;
    if (!call) return;
    const now = this.deps.now();
    if (now - call.flushedAt < OUTPUT_EVERY_MS) return;
    call.flushedAt = now;
    const update: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: call.id, content: [{ type: "content", content: text(outputBlock(call)) }] };
    // A terminal shows the output itself; the text goes only when the editor made none.
    const { terminal } = call;
    if (terminal) this.deps.sendLater(async () => ((await terminal.id) === null ? update : null));
    else this.deps.send(update);
  }
}

/** A tool call's arguments as one line of JSON, cut as the progress events cut a call's detail. */
function argumentsLine(args: Record<string, unknown>): string {
  const line = JSON.stringify(args);
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** A command's output so far, fenced: the live head, then the newest lines once it is past the head's cap. */
function outputBlock(call: OpenCall): string {
  const tail = call.tail ? `\n… ${call.tail.totalChars} characters so far; the newest lines:\n${call.tail.lines.join("\n")}` : "";
  return `\`\`\`console\n${call.output.replace(/\n$/, "")}${tail}\n\`\`\``;
}
