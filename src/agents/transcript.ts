import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ToolArtifact } from "../tools/types.js";
import { afterCall, beforeCall, hasGuardNote, newGuard, type CallOutcome, type LoopGuardState } from "./loop-guard.js";
import { runStopSchema, type RunStop } from "./run-state.js";
import type { LoopOutcome } from "./types.js";

/**
 * What a sub-agent run did, read back from its transcript: the transcript is checkpointed anyway, so reading it
 * keeps the run's state small and survives approval pauses and crashes without extra bookkeeping.
 */
export const ESTIMATED_USAGE = "mini_cursor_estimated_usage";
export const COMPACTED = "mini_cursor_compacted";
/** On the reply that ended a run without a model call: why (see middleware/usage.ts). */
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

/** A model's own reply (the usage middleware stamps every one); a limit notice added by middleware has no usage. */
export function isModelReply(m: BaseMessage): m is AIMessage {
  return AIMessage.isInstance(m) && m.usage_metadata !== undefined;
}

export interface RunUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  estimatedCalls: number;
}

export function runUsage(messages: readonly BaseMessage[]): RunUsage {
  const usage: RunUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, estimatedCalls: 0 };
  for (const m of messages) {
    if (!isModelReply(m) || !m.usage_metadata) continue;
    usage.modelCalls += 1;
    usage.inputTokens += m.usage_metadata.input_tokens;
    usage.outputTokens += m.usage_metadata.output_tokens;
    if (m.response_metadata?.[ESTIMATED_USAGE] === true) usage.estimatedCalls += 1;
  }
  return usage;
}

/** Whether the prompt was already cut down once in this run (said once). */
export function wasCompacted(messages: readonly BaseMessage[]): boolean {
  return messages.some((m) => AIMessage.isInstance(m) && m.response_metadata?.[COMPACTED] === true);
}

/** What a tool call did, for the loop guard: whether it failed, whether it changed files (from its artifact). */
export function outcomeOf(result: ToolMessage): CallOutcome {
  const ok = result.status !== "error";
  const artifact: unknown = result.artifact;
  return { ok, changedFiles: ok && isArtifact(artifact) && (artifact.filesChanged?.length ?? 0) > 0 };
}

/** Replays the loop guard over the finished tool calls, in order. */
export function guardFromTranscript(messages: readonly BaseMessage[], finishTool: string): LoopGuardState {
  const guard = newGuard();
  const results = new Map<string, ToolMessage>();
  for (const m of messages) if (ToolMessage.isInstance(m)) results.set(m.tool_call_id, m);
  for (const m of messages) {
    if (!AIMessage.isInstance(m)) continue;
    const invalid = new Set((m.invalid_tool_calls ?? []).map((c) => c.id));
    for (const call of m.tool_calls ?? []) {
      const result = results.get(call.id ?? "");
      if (!result || call.name === finishTool) continue;
      if (!invalid.has(call.id)) beforeCall(guard, call.name, call.args);
      afterCall(guard, call.name, call.args, outcomeOf(result));
      if (hasGuardNote(textOf(result))) guard.warned = true;
    }
  }
  return guard;
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
