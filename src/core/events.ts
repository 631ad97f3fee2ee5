import type { AgentName } from "./agents.js";
import type { ApprovalRequest } from "./approval.js";
import type { PlanStepView, StepStatus } from "./plan.js";
import type { QuestionRequest } from "./question.js";
import type { UsageSummary, UsageTotals } from "./usage.js";

/**
 * Progress events: the one channel through which the graph, the sub-agents and the tools tell the
 * outside world (the CLI's human printer, `--json` lines, tests) what is happening.
 */
/**
 * One model call. The model node reports its tokens (`estimated` when the reply carried no usage data); the graph
 * node that ran it adds `model` and the session's running `total` (src/agents/middleware/model-call.ts), so every event the
 * printers see has them.
 */
export interface ModelCallEvent {
  type: "model_call";
  agent: AgentName | "planner";
  model?: string;
  inputTokens: number;
  /** The part of inputTokens the endpoint served from its prompt cache; absent when it reported none. */
  cachedInputTokens?: number;
  outputTokens: number;
  estimated?: boolean;
  total?: UsageTotals;
}

export type ProgressEvent =
  /** `task` is the whole task as given (the views shorten it). */
  | { type: "session_started"; sessionId: string; task: string; workspace: string; resumed: boolean; model: string; worktree?: WorktreeView }
  | { type: "plan"; revision: number; steps: PlanStepView[] }
  | { type: "step_started"; stepId: string; agent: AgentName; goal: string }
  | { type: "tool_call"; agent: AgentName; stepId: string; tool: string; detail: string }
  | {
      type: "tool_result";
      agent: AgentName;
      stepId: string;
      tool: string;
      ok: boolean;
      detail: string;
      /** A command's exit code (null: killed by a signal), for views that show a terminal. */
      exitCode?: number | null;
    }
  | { type: "command_output"; stream: "stdout" | "stderr"; chunk: string }
  /** Past the live head of a long output: the newest lines, at most about once a second (a rolling tail). */
  | { type: "command_output_tail"; lines: string[]; totalChars: number }
  | ModelCallEvent
  | { type: "step_finished"; stepId: string; agent: AgentName; status: StepStatus; summary: string }
  | { type: "review"; stepId: string; decision: "approve" | "changes_requested"; problems: string[] }
  | { type: "limit_reached"; limit: string; detail: string }
  /** A background process (start_process) started, became ready (wait_for_process), exited on its own or was stopped. */
  | { type: "background_process"; state: "started" | "ready" | "exited" | "stopped"; id: string; name: string; command: string; detail: string }
  | { type: "notice"; level: "info" | "warn" | "error"; message: string }
  | ({ type: "approval_requested" } & Omit<ApprovalRequest, "type">)
  | { type: "approval_answered"; decision: "approve" | "reject" | "always" | "pending"; detail: string }
  /** An agent (or the planner) asked the person a clarifying question (ask_user); the session waits for the answer. */
  | ({ type: "question_asked" } & Omit<QuestionRequest, "type">)
  | { type: "question_answered"; answer: string }
  /** An MCP tool's progress report (the call's timeout restarts with each). */
  | { type: "tool_progress"; tool: string; progress: number; total?: number; message?: string }
  /** An MCP server asks the person for information during a tool call (elicitation); the call waits for the answer. */
  | { type: "form_asked"; server: string; message: string; fields: { title: string }[] }
  | { type: "form_answered"; server: string; action: "accept" | "decline" | "cancel" }
  /** `usage`: tokens and cost per agent and model (absent when the session's state could not be read). */
  | { type: "session_finished"; sessionId: string; status: string; report: string; usage?: UsageSummary; worktree?: WorktreeView };

/** A `run --worktree` session's git worktree, as its start and its report name it. */
export interface WorktreeView {
  branch: string;
  /** The worktree's folder. */
  folder: string;
  /** The main checkout had uncommitted changes, which the worktree (started from HEAD) does not have. */
  uncommittedLeftOut: boolean;
  /** Commits this run made on the branch (in session_finished). */
  commits?: number;
}

export interface EventSink {
  emit(event: ProgressEvent): void;
}

/** A sink that drops everything: the default for library use where nobody is watching. */
export const silentSink: EventSink = { emit: () => undefined };

/** Collects events in memory; handy for tests and for composing sinks. */
export class EventRecorder implements EventSink {
  readonly events: ProgressEvent[] = [];
  emit(event: ProgressEvent): void {
    this.events.push(event);
  }
}
