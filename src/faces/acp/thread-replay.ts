import type { PlanEntry, SessionUpdate, ToolCallStatus } from "@agentclientprotocol/sdk";
import type { PlanStepView } from "../../core/index.js";
import type { RecordedMessage, RecordedRequest, RecordedResponse, RecordedToolCall } from "../../models/recording-codec.js";
import { planEntries } from "./plan-entries.js";
import { toolView } from "./tool-view.js";

/** One recorded model call, decoded (src/faces/acp/recorded-thread.ts reads them from the session's database). */
export interface ReplayCall {
  seq: number;
  role: string;
  step: string | null;
  request: RecordedRequest;
  response: RecordedResponse;
}

export interface ThreadReplayInput {
  /** The session's task: turn 1's prompt. */
  task: string;
  /** The calls in call order, and the follow-up turns (their instruction and first call). */
  calls: readonly ReplayCall[];
  turns: readonly { firstSeq: number; instruction: string }[];
  /** The plan as checkpointed: step ids and goals for plans the planner sent. */
  plan: readonly PlanStepView[];
  /** The person's answers to questions (ask_user), replayed after each question asked. */
  answers: readonly { question: string; answer: string }[];
  workspace: string;
}

/** A tool's result as replayed: long outputs are cut (the live updates send at most a head and a tail too). */
export const REPLAY_RESULT_CHARS = 2_000;

const PLAN_TOOL = "update_plan";
const ASK_TOOL = "ask_user";
const FINISH_TOOLS = new Set(["submit_work", "submit_review", "submit_findings", "submit_result"]);

const text = (value: string) => ({ type: "text" as const, text: value });

export function capped(value: string, max = REPLAY_RESULT_CHARS): string {
  return value.length > max ? `${value.slice(0, max)}\n… (${(value.length - max).toLocaleString("en-US")} more characters)` : value;
}

/** The argument shown for a call, as the live progress events pick it (src/agents/middleware/tool-calls.ts). */
function detailOf(args: Record<string, unknown>): string {
  for (const key of ["command", "path", "pattern", "query", "url", "name", "process"]) {
    const value = args[key];
    if (typeof value === "string") return value.length > 120 ? `${value.slice(0, 117)}...` : value;
  }
  const line = JSON.stringify(args);
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function stringArg(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  return typeof value === "string" ? value : "";
}

/** The tool results a call's request carries: those of the same agent's previous call. */
function resultsIn(call: ReplayCall | undefined): Map<string, RecordedMessage> {
  const results = new Map<string, RecordedMessage>();
  for (const message of call?.request.tail ?? []) if (message.role === "tool" && message.toolCallId) results.set(message.toolCallId, message);
  return results;
}

/** The next call of the same agent in the same step: its request starts with this call's tool results. */
function nextOfSameRun(calls: readonly ReplayCall[], i: number): ReplayCall | undefined {
  const call = calls[i];
  if (!call) return undefined;
  return calls.slice(i + 1).find((c) => c.role === call.role && c.step === call.step);
}

/** The planner's `update_plan`: the steps that ran so far (finished), then the remaining ones it sent. */
function planUpdate(args: Record<string, unknown>, ran: readonly string[], known: readonly PlanStepView[]): PlanEntry[] {
  const done = ran.map((id): PlanEntry => {
    const step = known.find((s) => s.id === id);
    if (!step) return { content: id, priority: "medium", status: "completed" };
    const [entry] = planEntries([{ ...step, status: step.status === "failed" || step.status === "skipped" ? step.status : "done" }]);
    return entry ?? { content: id, priority: "medium", status: "completed" };
  });
  const remaining = Array.isArray(args.remainingSteps) ? (args.remainingSteps as unknown[]) : [];
  const pending = remaining.flatMap((raw): PlanEntry[] => {
    if (typeof raw !== "object" || raw === null) return [];
    const agent = stringArg(raw as Record<string, unknown>, "agent");
    const goal = stringArg(raw as Record<string, unknown>, "goal");
    const id = known.find((s) => s.agent === agent && s.goal === goal && !ran.includes(s.id))?.id;
    return [{ content: `${id ? `${id} ` : ""}${agent}: ${goal}`, priority: "medium", status: "pending" }];
  });
  return [...done, ...pending];
}

/** A step's end, as the live thought says it: the finish tool's summary or verdict. */
function finishThought(call: ReplayCall, args: Record<string, unknown>): string {
  const decision = stringArg(args, "decision");
  const problems = Array.isArray(args.problems) ? args.problems.filter((p): p is string => typeof p === "string") : [];
  const words = decision
    ? `${decision === "approve" ? "approved" : "changes requested"}${problems.length > 0 ? ` (${problems.join("; ")})` : ""}`
    : stringArg(args, "summary") || stringArg(args, "status");
  return `${call.step ?? ""} ${call.role}: ${words}`.trim();
}

/**
 * A session's thread as it happened, turn by turn, from its recorded model calls: each prompt (the task, then every
 * follow-up instruction), the plans the planner sent, every tool call of every agent (read, search, edit, command,
 * MCP...) as one finished `tool_call` with its status and its (cut) result, each step's start and end and the agents'
 * words as thoughts, and the planner's closing summary of each turn as the agent's message. A call whose result is
 * not recorded (the turn stopped before it ran, or an approval is still open) ends `failed` (or `pending` when it is
 * the session's last).
 */
export function threadUpdates(input: ThreadReplayInput): { updates: SessionUpdate[]; lastSummary: number | null } {
  const { calls, workspace } = input;
  const turnAt = new Map(input.turns.map((t) => [t.firstSeq, t.instruction]));
  const updates: SessionUpdate[] = [{ sessionUpdate: "user_message_chunk", content: text(input.task) }];
  const ran: string[] = [];
  let step: string | null = null;
  let count = 0;
  /** Where the current turn's closing summary is (the final report replaces the last one). */
  let lastSummary: number | null = null;
  let summarized = "";
  const think = (message: string) => updates.push({ sessionUpdate: "agent_thought_chunk", content: text(`${message}\n`) });

  calls.forEach((call, i) => {
    const instruction = turnAt.get(call.seq);
    if (instruction !== undefined) {
      updates.push({ sessionUpdate: "user_message_chunk", content: text(instruction) });
      lastSummary = null;
    }
    if (call.step !== null && call.step !== step) {
      const goal = input.plan.find((s) => s.id === call.step && s.agent === call.role)?.goal;
      think(`${call.step} ${call.role}${goal ? `: ${goal}` : ""}`);
      if (!ran.includes(call.step)) ran.push(call.step);
    }
    step = call.step;
    const said = call.response.content.trim();
    if (said && call.role !== "planner") think(capped(said));
    const results = resultsIn(nextOfSameRun(calls, i));
    const last = i === calls.length - 1;
    for (const toolCall of call.response.toolCalls) {
      if (toolCall.name === PLAN_TOOL) {
        updates.push({ sessionUpdate: "plan", entries: planUpdate(toolCall.args, ran, input.plan) });
        const summary = stringArg(toolCall.args, "summary");
        if (toolCall.args.finished === true && summary) {
          // A turn has one report: a finish the planner made before a final review becomes a thought.
          if (lastSummary !== null) updates[lastSummary] = { sessionUpdate: "agent_thought_chunk", content: text(`${summarized}\n`) };
          summarized = summary;
          lastSummary = updates.push({ sessionUpdate: "agent_message_chunk", content: text(`${summary}\n\n`) }) - 1;
        }
        continue;
      }
      if (toolCall.name === ASK_TOOL) {
        const question = stringArg(toolCall.args, "question");
        updates.push({ sessionUpdate: "agent_message_chunk", content: text(`${question}\n\n`) });
        const answer = input.answers.find((a) => a.question === question)?.answer;
        if (answer !== undefined) updates.push({ sessionUpdate: "user_message_chunk", content: text(answer) });
        continue;
      }
      if (FINISH_TOOLS.has(toolCall.name)) {
        think(finishThought(call, toolCall.args));
        continue;
      }
      count += 1;
      updates.push(replayedCall(toolCall, results.get(toolCall.id), `history-${count}`, last, workspace));
    }
  });
  return { updates, lastSummary };
}

function replayedCall(call: RecordedToolCall, result: RecordedMessage | undefined, id: string, last: boolean, workspace: string): SessionUpdate {
  const detail = detailOf(call.args);
  const view = toolView(call.name, detail, workspace);
  const status: ToolCallStatus = result ? (result.status === "error" ? "failed" : "completed") : last ? "pending" : "failed";
  const outcome = result ? capped(result.content) : last ? "Not run yet: the session stopped here." : "No result: the turn ended before it ran.";
  return {
    sessionUpdate: "tool_call",
    toolCallId: id,
    ...view,
    status,
    content: [{ type: "content", content: text(outcome) }],
    rawInput: { tool: call.name, detail },
  };
}
