import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { afterCall, beforeCall, type LoopGuardState } from "../loop-guard.js";
import { contextOf } from "../run-context.js";
import { AgentRunState } from "../run-state.js";
import { guardFromTranscript, outcomeOf, textOf } from "../transcript.js";
import type { AgentDeps } from "./deps.js";

interface Batch {
  guard: LoopGuardState;
  /** Calls of one reply run one after another, in order (the tools node starts them all at once). */
  queue: Promise<unknown>;
  stopped: string;
}

function withNote(message: ToolMessage, note: string): ToolMessage {
  return new ToolMessage({ tool_call_id: message.tool_call_id, name: message.name, content: `${textOf(message)}\n\n${note}`, artifact: message.artifact, status: message.status });
}

/**
 * Notices a sub-agent going round in circles (src/agents/loop-guard.ts): the same call again with nothing changed,
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
        if (current.stopped) return new ToolMessage({ tool_call_id: id, name, content: `Error: not run: this run was stopped (${current.stopped}).`, status: "error" });
        const invalid = (reply.invalid_tool_calls ?? []).some((c) => c.id === id);
        if (name === deps.spec.finishTool.name) return handler(request);
        let note = "";
        if (!invalid) {
          const repeat = beforeCall(current.guard, name, toolCall.args);
          if (repeat.kind === "stop") return stop(current, id, name, repeat.reason, `Error: not run: you ${repeat.reason}, so this run is stopped and the planner will decide what to do next.`, stepId);
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
    return new Command({ update: { messages: [new ToolMessage({ tool_call_id: id, name, content, status: "error" })], stop: { kind: "loop", detail: reason } } });
  }
}
