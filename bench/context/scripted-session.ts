import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { compileGraph } from "../../src/graph/build-graph.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, type EventSink } from "../../src/core/index.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { memoryOff } from "../../src/memory/types.js";
import type { ModelProvider } from "../../src/models/chat-model.js";
import { recordingModel, toolCallReply, type PromptRecord, type ToolDefinitions } from "./prompts.js";
import type { ScriptedRun } from "./script.js";

export interface ScriptedSessionOptions {
  workspace: string;
  task: string;
  /** The sub-agent runs the planner hands out, in order, each with its model's tool calls. */
  runs: readonly ScriptedRun[];
  maxPromptTokens: number;
  /** What the planner says when it finishes. */
  summary: string;
  /**
   * Every prompt a model receives: the role, its run (a sub-agent's 0-based run, or the planner's call), the messages
   * and the tools bound. Returns how the prompt was measured, which the reply's usage reports.
   */
  onPrompt(role: string, run: number, messages: BaseMessage[], tools: ToolDefinitions): PromptRecord;
}

export interface ScriptedSession {
  state: WorkspaceStateValue;
  toolCalls: number;
  failedResults: number;
  /** The notices the session gave, with how many prompts had been sent by then. */
  notices: { afterPrompt: number; message: string }[];
}

/**
 * The real session graph (planner → sub-agent ReAct loops with the context budget, real tools on `workspace`) driven
 * by scripted fake models: the planner plans the runs still to do after each report, then finishes; each sub-agent run
 * makes its scripted tool calls, then its finish call. Shared by the benches that measure what the models are sent.
 */
export async function runScriptedSession(o: ScriptedSessionOptions): Promise<ScriptedSession> {
  let prompts = 0;
  const onPrompt = (role: string, run: number, messages: BaseMessage[], tools: ToolDefinitions): PromptRecord => {
    prompts += 1;
    return o.onPrompt(role, run, messages, tools);
  };
  let plannerCalls = 0;
  let plannerTurn = 0;
  let subAgentRuns = 0;
  let current: { role: string; model: BaseChatModel; used: number; replies: number } | null = null;
  const models: ModelProvider = {
    forRole(role) {
      if (role === "planner") {
        // The planner asks for its model at every call; each answer is a turn's plan.
        const call = plannerCalls++;
        return recordingModel(
          1,
          (messages, tools) => onPrompt("planner", call, messages, tools),
          () => {
            const turn = plannerTurn++;
            return turn < o.runs.length
              ? toolCallReply("update_plan", {
                  remainingSteps: o.runs.slice(turn).map((r) => ({ agent: r.agent, goal: r.goal, acceptanceCriteria: [] })),
                  finished: false,
                })
              : toolCallReply("update_plan", { remainingSteps: [], finished: true, outcome: "done", summary: o.summary });
          },
        );
      }
      // The agent asks for its model at every call: one scripted model per run, used for all of the run's replies.
      if (current && current.role === role && current.used < current.replies) {
        current.used += 1;
        return current.model;
      }
      const index = subAgentRuns++;
      const script = o.runs[index];
      if (!script || script.agent !== role) throw new Error(`scripted session: unexpected ${role} run #${index + 1} (the script has ${o.runs.length} runs)`);
      // One reply per model call, in order: the run's tool calls, then its finish tool.
      const model = recordingModel(
        script.calls.length + 1,
        (messages, tools) => onPrompt(role, index, messages, tools),
        (call) => {
          const next = script.calls[call];
          return next ? toolCallReply(next.name, next.args) : toolCallReply(script.finish.name, script.finish.args);
        },
      );
      current = { role, model, used: 1, replies: script.calls.length + 1 };
      return model;
    },
    describe: (role) => `scripted-${role}`,
  };
  let toolCalls = 0;
  let failedResults = 0;
  const notices: ScriptedSession["notices"] = [];
  const events: EventSink = {
    emit(event) {
      if (event.type === "tool_call") toolCalls++;
      if (event.type === "tool_result" && !event.ok) failedResults++;
      if (event.type === "notice") notices.push({ afterPrompt: prompts, message: event.message });
    },
  };
  const graph = compileGraph({ models, events, memory: memoryOff }, new MemorySaver());
  const config = { configurable: { thread_id: "scripted-session" }, recursionLimit: 300 };
  await graph.invoke(
    {
      task: o.task,
      workspace: o.workspace,
      limits: { ...DEFAULT_LIMITS, maxPromptTokens: o.maxPromptTokens },
      safety: { ...DEFAULT_SAFETY, approval: "auto" as const },
    },
    config,
  );
  const state = (await graph.getState(config)).values as WorkspaceStateValue;
  return { state, toolCalls, failedResults, notices };
}
