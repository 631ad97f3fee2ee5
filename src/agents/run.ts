import { DeltaValue, messagesDeltaReducer, MessagesDeltaValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { safetyPolicySchema, usageBaseSchema } from "../core/index.js";
import { budgetSchema } from "../models/cost/budget.js";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolArtifact } from "../tools/types.js";
import type { LoopOutcome } from "./types.js";

/**
 * The transcript as per-step deltas with no periodic full copy. LangGraph's default (a snapshot of the whole list
 * every 100 updates) makes checkpoint bytes per call grow with the run: the snapshots of a 200-call run were 1 MB,
 * more than every result stored once. Replay on resume stays bounded without them: a run has a namespace of its own,
 * so its walk is at most the run (capped by its model-call limit), and LangGraph still snapshots a channel after 5000
 * supersteps (DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT).
 */
export const RunMessagesValue = new DeltaValue(MessagesDeltaValue.valueSchema, {
  inputSchema: MessagesDeltaValue.inputSchema,
  reducer: messagesDeltaReducer,
  snapshotFrequency: Number.MAX_SAFE_INTEGER,
  jsonSchemaExtra: MessagesDeltaValue.jsonSchemaExtra,
});

export const runStopSchema = z.object({ kind: z.enum(["loop", "budget", "call_limit"]), detail: z.string() });
export type RunStop = z.infer<typeof runStopSchema>;

/**
 * One tool call's approval decision, made once (src/agents/middleware/approval.ts). "ask" is recorded when the reply
 * arrives and becomes "approve" or "reject" with the person's answer.
 */
export const decisionSchema = z.object({
  decision: z.enum(["approve", "reject", "deny", "ask"]),
  /** Why it was denied or rejected; for an "ask", why it is asked in every mode (or the MCP server's name). */
  reason: z.string(),
  /** File tools: where the write was judged to land (workspace-relative); approved by a person, the only place it may. */
  landing: z.string().optional(),
  /** An "ask" only the approval mode makes (ask mode, or approve-file-changes); a face may answer it from the mode. */
  modeOnly: z.boolean().optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

/**
 * The state of one sub-agent run (its own subgraph, its own checkpoint namespace): the transcript and what the run
 * decides as it goes. Its inputs are runtime context (below), not state, so the agent is compiled
 * once, mounted in the session graph, and nothing that never changes is checkpointed. What the run did (files
 * changed, commands, usage, the finish call) is read back from the transcript (below).
 */
export const AgentRunState = new StateSchema({
  /** Per-step deltas in checkpoints, not the whole transcript at every step (nor every 100 steps). */
  messages: RunMessagesValue,
  /** "Always" patterns granted in this session; the approval gate adds new ones. */
  allowPatterns: z.array(z.string()).default(() => []),
  /** The approval decision per tool call id of the newest model reply that had calls to judge. */
  decisions: z.record(z.string(), decisionSchema).default(() => ({})),
  /** The person's answer per ask_user call id in this run (src/agents/middleware/reply-gate.ts). */
  answers: z.record(z.string(), z.string()).default(() => ({})),
  /** Why the run was stopped early: the loop guard, the session budget or the model-call limit. */
  stop: runStopSchema.nullable().default(null),
  /** The finish-tool reminder was given (once per run). */
  nudged: z.boolean().default(false),
});

/**
 * AgentRunState without the transcript: the state a model-call wrap sees besides the request's messages
 * (middleware/model-call.ts reads it from the model node's input rather than declaring it to LangChain, which would
 * rebuild and parse a schema of it on every model call).
 */
const { messages: _transcript, ...runFields } = AgentRunState.fields;
export const ModelCallState = new StateSchema(runFields);

export type AgentRunValue = typeof AgentRunState.State;
export type AgentRunUpdate = typeof AgentRunState.Update;

/**
 * What one sub-agent run is given and does not change: LangGraph runtime context (`agent.invoke(input, { context })`),
 * never state, so none of it is checkpointed. The session graph's adapter (src/graph/nodes/sub-agent.ts) builds it
 * from the session's state and the run's configurable settings each time it runs the agent, so a session resumed
 * with new settings (`resume --approval`, another checkout, new limits or budget) applies them to the run it stopped in.
 */
export const agentRunContextSchema = z.object({
  /** The workspace's real path: every tool is confined to it. */
  workspace: z.string(),
  stepId: z.string(),
  safety: safetyPolicySchema,
  maxModelCalls: z.number(),
  maxPromptTokens: z.number(),
  /** Session usage before this run, summed, for the budget and the running totals. */
  usageBase: usageBaseSchema,
  /** Questions the session asked before this run, and how many it may ask in all. */
  questions: z.object({ asked: z.number(), max: z.number() }),
  budget: budgetSchema,
});
export type AgentRunContext = z.infer<typeof agentRunContextSchema>;

/** The run as the middleware reads it: its state (transcript, decisions, answers, grants) and its context. */
export type AgentRun = AgentRunValue & AgentRunContext;

const checked = new WeakMap<object, AgentRunContext>();

/**
 * The run's context, checked once per context object (the adapter makes one per run). A run started without one
 * (an agent invoked by hand) fails at once with a clear error rather than working in the wrong folder.
 */
export function contextOf(context: unknown): AgentRunContext {
  if (typeof context !== "object" || context === null) throw new Error("a sub-agent run needs its runtime context (workspace, step, safety, limits)");
  let parsed = checked.get(context);
  if (!parsed) {
    parsed = agentRunContextSchema.parse(context);
    checked.set(context, parsed);
  }
  return parsed;
}

/** The state with the run's context beside it (read-only: never returned as an update). */
export function runOf(state: AgentRunValue, context: unknown): AgentRun {
  return { ...state, ...contextOf(context) };
}

/**
 * What a sub-agent run did, read back from its transcript: the transcript is checkpointed anyway, so reading it
 * keeps the run's state small and survives approval pauses and crashes without extra bookkeeping.
 */
export const ESTIMATED_USAGE = "mini_cursor_estimated_usage";
export const COMPACTED = "mini_cursor_compacted";
/** On the reply that ended a run without a model call: why (see middleware/model-call.ts). */
export const RUN_STOP = "mini_cursor_run_stop";

export function textOf(message: BaseMessage | undefined): string {
  if (!message) return "";
  const c = message.content;
  if (typeof c === "string") return c;
  return c.map((part) => (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

export function isArtifact(value: unknown): value is ToolArtifact {
  return typeof value === "object" && value !== null && typeof (value as { ok?: unknown }).ok === "boolean";
}

/**
 * A model reply as a later prompt shows it, with its text, calls or metadata changed (elided or cleared arguments):
 * the same id, name and usage. The provider's raw tool calls are left out of `additional_kwargs`: the client would
 * send those instead of the changed ones.
 */
export function replyWith(m: AIMessage, changes: Partial<Pick<AIMessage, "content" | "tool_calls" | "invalid_tool_calls" | "response_metadata">>): AIMessage {
  const { tool_calls: _raw, function_call: _fn, ...kwargs } = m.additional_kwargs;
  return new AIMessage({
    id: m.id,
    name: m.name,
    content: m.content,
    tool_calls: m.tool_calls,
    invalid_tool_calls: m.invalid_tool_calls,
    additional_kwargs: kwargs,
    response_metadata: m.response_metadata,
    usage_metadata: m.usage_metadata,
    ...changes,
  });
}

/** A model's own reply (the usage middleware stamps every one); a limit notice added by middleware has no usage. */
export function isModelReply(m: BaseMessage): m is AIMessage {
  return AIMessage.isInstance(m) && m.usage_metadata !== undefined;
}

export interface RunUsage {
  modelCalls: number;
  inputTokens: number;
  /** The part of inputTokens the provider served from its prompt cache (estimated calls have none). */
  cachedInputTokens: number;
  outputTokens: number;
  estimatedCalls: number;
}

export function runUsage(messages: readonly BaseMessage[]): RunUsage {
  const usage: RunUsage = { modelCalls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, estimatedCalls: 0 };
  for (const m of messages) {
    if (!isModelReply(m) || !m.usage_metadata) continue;
    usage.modelCalls += 1;
    usage.inputTokens += m.usage_metadata.input_tokens;
    usage.cachedInputTokens += m.usage_metadata.input_token_details?.cache_read ?? 0;
    usage.outputTokens += m.usage_metadata.output_tokens;
    if (m.response_metadata?.[ESTIMATED_USAGE] === true) usage.estimatedCalls += 1;
  }
  return usage;
}

/** Whether the prompt was already cut down once in this run (said once). */
export function wasCompacted(messages: readonly BaseMessage[]): boolean {
  return messages.some((m) => AIMessage.isInstance(m) && m.response_metadata?.[COMPACTED] === true);
}

/** The stop a run's last message carries, when the run ended without a model call. */
export function markedStop(message: BaseMessage | undefined): RunStop | null {
  if (!message || !AIMessage.isInstance(message)) return null;
  const parsed = runStopSchema.safeParse(message.response_metadata?.[RUN_STOP]);
  return parsed.success ? parsed.data : null;
}

/** The outcome of a run from its final state. */
export function readOutcome(messages: readonly BaseMessage[], finishTool: string, stop: RunStop | null): LoopOutcome {
  const calls = new Map<string, Record<string, unknown>>();
  for (const m of messages) if (AIMessage.isInstance(m)) for (const c of m.tool_calls ?? []) calls.set(c.id ?? "", c.args);
  let finish: Record<string, unknown> | null = null;
  const filesChanged = new Set<string>();
  const commands: LoopOutcome["commands"] = [];
  for (const m of messages) {
    if (!ToolMessage.isInstance(m)) continue;
    if (m.name === finishTool && m.status !== "error") finish = calls.get(m.tool_call_id) ?? null;
    const artifact: unknown = m.artifact;
    if (!isArtifact(artifact)) continue;
    for (const f of artifact.filesChanged ?? []) filesChanged.add(f);
    if (artifact.command) {
      const { command, cwd, exitCode, timedOut, refused } = artifact.command;
      commands.push({ command, cwd, exitCode, timedOut, ...(refused ? { refused } : {}) });
    }
  }
  const replies = messages.filter(isModelReply);
  const marked = markedStop(messages.at(-1));
  const ended = stop ?? marked;
  const stopReason: LoopOutcome["stopReason"] = finish ? "finished" : ended ? ended.kind : "text";
  return {
    finish,
    lastText: textOf(replies.at(-1)),
    stopReason,
    stopDetail: ended?.detail ?? "",
    modelCalls: replies.length,
    filesChanged: [...filesChanged],
    commands,
  };
}
