import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { ToolInputParsingException, type StructuredToolInterface } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { AgentName, ProgressEvent } from "../../runtime/events.js";
import type { ToolArtifact } from "../../tools/types.js";
import type { FinishToolSpec } from "../types.js";
import { afterCall, beforeCall, type LoopGuardState } from "./loop-guard.js";
import type { LoopStateUpdate, LoopStateValue } from "./loop-state.js";

export interface ToolsNodeDeps {
  agent: AgentName;
  stepId: string;
  tools: StructuredToolInterface[];
  finishTool: FinishToolSpec;
  emit: (event: ProgressEvent) => void;
}

/** The argument a person watching wants to see for each call. */
export function describeCall(args: unknown): string {
  if (typeof args !== "object" || args === null) return "";
  const record = args as Record<string, unknown>;
  for (const key of ["command", "path", "pattern", "query"]) {
    const value = record[key];
    if (typeof value === "string") return value.length > 120 ? `${value.slice(0, 117)}...` : value;
  }
  return "";
}

function isArtifact(value: unknown): value is ToolArtifact {
  return typeof value === "object" && value !== null && typeof (value as { ok?: unknown }).ok === "boolean";
}

function errorMessage(callId: string, name: string, text: string): ToolMessage {
  return new ToolMessage({ tool_call_id: callId, name, content: `Error: ${text}`, status: "error" });
}

function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/**
 * Runs every tool call of the last model reply. Nothing the model sends can crash the loop: a tool the
 * agent does not have, arguments that are not JSON or fail the schema, and tool exceptions all come back
 * as tool errors the model can correct.
 */
export function createToolsNode(deps: ToolsNodeDeps) {
  const byName = new Map(deps.tools.map((t) => [t.name, t]));
  const available = [...byName.keys(), deps.finishTool.name].join(", ");

  return async (state: LoopStateValue, config: LangGraphRunnableConfig): Promise<LoopStateUpdate> => {
    const last = state.messages.at(-1);
    if (!last || !AIMessage.isInstance(last)) return {};
    const invalid = new Map((last.invalid_tool_calls ?? []).map((c) => [c.id ?? "", c]));
    const messages: ToolMessage[] = [];
    const filesChanged: string[] = [];
    const commands: NonNullable<LoopStateUpdate["commands"]> = [];
    let finish: Record<string, unknown> | null = null;
    const guard: LoopGuardState = { callCounts: { ...state.callCounts }, failStreak: state.failStreak, warned: state.loopWarned };
    let stopped = "";
    let repeatNote = "";
    /** After each result: loop detection may add a note to it, or stop the run. */
    const record = (name: string, ok: boolean) => {
      if (repeatNote) annotateLast(messages, repeatNote);
      repeatNote = "";
      const verdict = afterCall(guard, name, ok);
      if (verdict.kind === "warn") annotateLast(messages, verdict.note);
      if (verdict.kind === "stop") stopped = verdict.reason;
    };

    for (const call of last.tool_calls ?? []) {
      const id = call.id ?? "";
      const name = call.name;
      if (stopped) {
        messages.push(errorMessage(id, name, `not run: this run was stopped (${stopped}).`));
        continue;
      }
      const bad = invalid.get(id);
      if (bad) {
        messages.push(
          errorMessage(id, name, `the arguments for ${name} were not valid JSON (${bad.error ?? "parse error"}). Call ${name} again with a valid JSON object.`),
        );
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok: false, detail: "invalid JSON arguments" });
        record(name, false);
        continue;
      }
      if (name === deps.finishTool.name) {
        const parsed = deps.finishTool.schema.safeParse(call.args);
        if (!parsed.success) {
          messages.push(errorMessage(id, name, `invalid arguments: ${formatZodIssues(parsed.error)}. Fix them and call ${name} again.`));
          continue;
        }
        finish = parsed.data as Record<string, unknown>;
        messages.push(new ToolMessage({ tool_call_id: id, name, content: "Recorded. Your run is complete." }));
        continue;
      }
      const repeat = beforeCall(guard, name, call.args);
      if (repeat.kind === "stop") {
        stopped = repeat.reason;
        messages.push(errorMessage(id, name, `not run: you ${repeat.reason}, so this run is stopped and the planner will decide what to do next.`));
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok: false, detail: "stopped: repeated call" });
        continue;
      }
      if (repeat.kind === "warn") repeatNote = repeat.note;
      const verdict = state.decisions[id];
      if (verdict && verdict.decision !== "approve") {
        const text =
          verdict.decision === "deny"
            ? `this is not allowed: ${verdict.reason} Do not retry it in another spelling; find another way, or finish and report that you are blocked.`
            : `the user rejected this ${name === "execute_command" ? "command" : "change"}${verdict.reason ? `: ${verdict.reason}` : ""}. Do not repeat it; adjust your approach to the user's reason.`;
        messages.push(errorMessage(id, name, text));
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok: false, detail: verdict.decision === "deny" ? "denied by rule" : "rejected by the user" });
        record(name, false);
        continue;
      }
      const tool = byName.get(name);
      if (!tool) {
        messages.push(errorMessage(id, name, `tool "${name}" is not available to the ${deps.agent}. Available tools: ${available}.`));
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok: false, detail: "not available" });
        record(name, false);
        continue;
      }
      deps.emit({ type: "tool_call", agent: deps.agent, stepId: deps.stepId, tool: name, detail: describeCall(call.args) });
      try {
        const result: unknown = await tool.invoke({ id, name, args: call.args, type: "tool_call" }, { signal: config.signal });
        const message =
          result instanceof ToolMessage
            ? result
            : new ToolMessage({ tool_call_id: id, name, content: typeof result === "string" ? result : JSON.stringify(result) });
        const artifact: unknown = message.artifact;
        const ok = isArtifact(artifact) ? artifact.ok : true;
        if (isArtifact(artifact)) {
          filesChanged.push(...(artifact.filesChanged ?? []));
          if (artifact.command) {
            const { command, cwd, exitCode, timedOut } = artifact.command;
            commands.push({ command, cwd, exitCode, timedOut });
          }
        }
        if (!ok) message.status = "error";
        // Artifacts are for the harness; keep the transcript lean.
        messages.push(new ToolMessage({ tool_call_id: id, name, content: message.content, status: message.status }));
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok, detail: firstLine(message.content) });
        record(name, ok);
      } catch (error) {
        const text =
          error instanceof ToolInputParsingException
            ? `invalid arguments for ${name}: ${error.message.replace(/\s+/g, " ")}. Check the tool's schema and call it again.`
            : `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
        messages.push(errorMessage(id, name, text));
        deps.emit({ type: "tool_result", agent: deps.agent, stepId: deps.stepId, tool: name, ok: false, detail: firstLine(text) });
        record(name, false);
      }
    }
    const update: LoopStateUpdate = {
      messages,
      filesChanged,
      commands,
      callCounts: guard.callCounts,
      failStreak: guard.failStreak,
      loopWarned: guard.warned,
    };
    if (finish) {
      update.finish = finish;
      update.stopReason = "finished";
    } else if (stopped) {
      update.stopReason = "loop";
      update.stopDetail = stopped;
      deps.emit({ type: "limit_reached", limit: "loop", detail: `${deps.agent} ${deps.stepId}: ${stopped}` });
    }
    return update;
  };
}

/** Adds a note to the newest tool result (the model reads it with that result). */
function annotateLast(messages: ToolMessage[], note: string): void {
  const last = messages.at(-1);
  if (!last) return;
  const content = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  messages[messages.length - 1] = new ToolMessage({ tool_call_id: last.tool_call_id, name: last.name, content: `${content}\n\n${note}`, status: last.status });
}

function firstLine(content: unknown): string {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
