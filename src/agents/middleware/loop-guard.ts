import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { contextOf } from "../run.js";
import { AgentRunState } from "../run.js";
import { isArtifact, textOf } from "../run.js";
import type { BaseMessage } from "@langchain/core/messages";
import type { AgentDeps } from "./deps.js";
import { createHash } from "node:crypto";

interface Batch {
  guard: LoopGuardState;
  /** Calls of one reply run one after another, in order (the tools node starts them all at once). */
  queue: Promise<unknown>;
  stopped: string;
}

function withNote(message: ToolMessage, note: string): ToolMessage {
  return new ToolMessage({
    tool_call_id: message.tool_call_id,
    name: message.name,
    content: `${textOf(message)}\n\n${note}`,
    artifact: message.artifact,
    status: message.status,
  });
}

/**
 * Notices a sub-agent going round in circles (the rules below): the same call again with nothing changed,
 * or failures in a row. The agent is told once; if it keeps on, the run stops and the planner decides. The counts
 * are replayed from the transcript at each reply instead of being stored in the run state.
 */
export function loopGuardMiddleware(deps: Pick<AgentDeps, "spec" | "emit">) {
  const batches = new WeakMap<AIMessage, Batch>();
  return createMiddleware({
    name: "LoopGuard",
    stateSchema: AgentRunState,
    wrapToolCall: (request, handler) => {
      const { toolCall, state } = request;
      const { stepId } = contextOf(request.runtime.context);
      const reply = state.messages.findLast((m): m is AIMessage => AIMessage.isInstance(m));
      if (!reply) return handler(request);
      let batch = batches.get(reply);
      if (!batch) {
        batch = { guard: guardFromTranscript(state.messages, deps.spec.finishTool.name), queue: Promise.resolve(), stopped: "" };
        batches.set(reply, batch);
      }
      const current = batch;
      const run = async (): Promise<ToolMessage | Command> => {
        const id = toolCall.id ?? "";
        const name = toolCall.name;
        if (current.stopped)
          return new ToolMessage({ tool_call_id: id, name, content: `Error: not run: this run was stopped (${current.stopped}).`, status: "error" });
        const invalid = (reply.invalid_tool_calls ?? []).some((c) => c.id === id);
        if (name === deps.spec.finishTool.name) return handler(request);
        let note = "";
        if (!invalid) {
          const repeat = beforeCall(current.guard, name, toolCall.args);
          if (repeat.kind === "stop")
            return stop(
              current,
              id,
              name,
              repeat.reason,
              `Error: not run: you ${repeat.reason}, so this run is stopped and the planner will decide what to do next.`,
              stepId,
            );
          if (repeat.kind === "warn") note = repeat.note;
        }
        const result = await handler(request);
        if (!ToolMessage.isInstance(result)) return result;
        let message = note ? withNote(result, note) : result;
        const verdict = afterCall(current.guard, name, toolCall.args, outcomeOf(result));
        if (verdict.kind === "warn") message = withNote(message, verdict.note);
        if (verdict.kind === "stop") {
          current.stopped = verdict.reason;
          deps.emit({ type: "limit_reached", limit: "loop", detail: `${deps.spec.name} ${stepId}: ${verdict.reason}` });
          return new Command({ update: { messages: [message], stop: { kind: "loop", detail: verdict.reason } } });
        }
        return message;
      };
      const next = current.queue.then(run, run);
      current.queue = next.catch(() => undefined);
      return next;
    },
  });

  function stop(batch: Batch, id: string, name: string, reason: string, content: string, stepId: string): Command {
    batch.stopped = reason;
    deps.emit({ type: "tool_result", agent: deps.spec.name, stepId, tool: name, ok: false, detail: "stopped: repeated call" });
    deps.emit({ type: "limit_reached", limit: "loop", detail: `${deps.spec.name} ${stepId}: ${reason}` });
    return new Command({
      update: { messages: [new ToolMessage({ tool_call_id: id, name, content, status: "error" })], stop: { kind: "loop", detail: reason } },
    });
  }
}

/**
 * Notices a sub-agent going round in circles: the same tool call with the same arguments again (with no file
 * change in between), or a run of tool calls that all fail. The agent is told once; if it keeps on, the run
 * stops and the planner decides what to do. A write that changed nothing (the same content again) is no change.
 */
export interface LoopGuardState {
  /** Identical calls since the last successful file change, by call signature. */
  callCounts: Record<string, number>;
  failStreak: number;
  warned: boolean;
}

export const REPEAT_WARN_AT = 2;
export const REPEAT_STOP_AT = 3;
export const FAIL_WARN_AT = 4;
export const FAIL_STOP_AT = 6;

/** The notes start like this; a replay of the transcript finds them to know the agent was told. */
const REPEAT_NOTE = "Note: you already made this exact";
const FAIL_NOTE = "Note: your last";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** Arguments are signed once per call: the guard is replayed over the whole transcript at every reply. */
const signed = new WeakMap<object, string>();
const HASH_OVER = 256;

/** Name and arguments, whatever the key order; long arguments (a 1 MB file written) are hashed to keep keys small. */
export function callSignature(name: string, args: unknown): string {
  const key = typeof args === "object" && args !== null ? args : undefined;
  let signature = key ? signed.get(key) : undefined;
  if (signature === undefined) {
    const json = JSON.stringify(canonical(args)) ?? "";
    signature = json.length > HASH_OVER ? `sha256:${createHash("sha256").update(json).digest("hex")}` : json;
    if (key) signed.set(key, signature);
  }
  return `${name}:${signature}`;
}

export interface CallOutcome {
  ok: boolean;
  changedFiles: boolean;
}

export type GuardVerdict = { kind: "ok" } | { kind: "warn"; note: string } | { kind: "stop"; reason: string };

/** Counts a call before it runs: a third identical call stops the run, the second gets a warning. */
export function beforeCall(guard: LoopGuardState, name: string, args: unknown): GuardVerdict {
  const signature = callSignature(name, args);
  const count = (guard.callCounts[signature] ?? 0) + 1;
  guard.callCounts[signature] = count;
  if (count >= REPEAT_STOP_AT && guard.warned) {
    return { kind: "stop", reason: `repeated ${name} with the same arguments ${count} times without changing anything` };
  }
  if (count >= REPEAT_WARN_AT && !guard.warned) {
    guard.warned = true;
    return {
      kind: "warn",
      note: `${REPEAT_NOTE} ${name} call and nothing has changed since; repeating it will give the same result. Change your approach, or finish and report what blocks you.`,
    };
  }
  return { kind: "ok" };
}

/**
 * Records a call's outcome: failures in a row build a streak; a call that changed files resets the repeat counts of
 * every other call (running the tests again after a fix is progress) but not its own: the same write again changes
 * nothing. `changedFiles` comes from the tool's result (write_file reports no change when the content was the same).
 */
export function afterCall(guard: LoopGuardState, name: string, args: unknown, { ok, changedFiles }: CallOutcome): GuardVerdict {
  if (ok && changedFiles) {
    const signature = callSignature(name, args);
    guard.callCounts = { [signature]: guard.callCounts[signature] ?? 1 };
  }
  guard.failStreak = ok ? 0 : guard.failStreak + 1;
  if (guard.failStreak >= FAIL_STOP_AT && guard.warned) {
    return { kind: "stop", reason: `${guard.failStreak} tool calls in a row failed` };
  }
  if (guard.failStreak >= FAIL_WARN_AT && !guard.warned) {
    guard.warned = true;
    return {
      kind: "warn",
      note: `${FAIL_NOTE} ${guard.failStreak} tool calls all failed. Stop and rethink: read the errors, check paths with list_directory, or finish and report what blocks you.`,
    };
  }
  return { kind: "ok" };
}

export function newGuard(): LoopGuardState {
  return { callCounts: {}, failStreak: 0, warned: false };
}

/** Whether a tool result carries one of the guard's notes (the agent was told). */
export function hasGuardNote(content: string): boolean {
  return content.includes(REPEAT_NOTE) || content.includes(FAIL_NOTE);
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
