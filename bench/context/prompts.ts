import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { countTokensApproximately } from "langchain";

/**
 * Measures every prompt a scripted model receives, the same way for both designs: LangChain's
 * `countTokensApproximately` (characters / 4) over the messages sent, plus the tool definitions bound to the
 * model (their OpenAI JSON, characters / 4), as a provider would receive them with every call.
 */
export type ToolDefinitions = NonNullable<Parameters<typeof countTokensApproximately>[1]>;

export const PARTS = ["system + brief", "tool definitions", "model tool calls", "tool results (full)", "cleared placeholders", "summaries", "other"] as const;
export type PartName = (typeof PARTS)[number];

export interface PromptRecord {
  role: string;
  /** 0-based sub-agent run (or planner turn) the prompt belongs to. */
  run: number;
  messages: number;
  tokens: number;
  parts: Record<PartName, number>;
}

function textOf(message: BaseMessage): string {
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

function partOf(message: BaseMessage, index: number): PartName {
  // The first two messages are the system prompt and the brief (planner: its context; naive loop: the task).
  if (index < 2) return "system + brief";
  if (AIMessage.isInstance(message)) return "model tool calls";
  if (ToolMessage.isInstance(message)) {
    const cleared = (message.response_metadata as { context_editing?: { cleared?: boolean } } | undefined)?.context_editing?.cleared === true;
    return cleared || textOf(message).startsWith("[older tool output cleared") ? "cleared placeholders" : "tool results (full)";
  }
  if (HumanMessage.isInstance(message) && textOf(message).startsWith("[Summary of")) return "summaries";
  return "other";
}

export function measurePrompt(role: string, run: number, messages: BaseMessage[], tools: ToolDefinitions): PromptRecord {
  const parts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<PartName, number>;
  parts["tool definitions"] = tools.length > 0 ? countTokensApproximately([], tools) : 0;
  messages.forEach((m, i) => {
    parts[partOf(m, i)] += countTokensApproximately([m]);
  });
  return { role, run, messages: messages.length, tokens: countTokensApproximately(messages, tools), parts };
}

export type RecordingModel = ReturnType<typeof fakeModel>;

/**
 * A fake chat model that answers `replies` times: each time it measures the prompt it was sent (with the tools
 * bound to it) and lets `answer` pick the reply, whose usage reports the measured prompt size.
 */
export function recordingModel(
  replies: number,
  measure: (messages: BaseMessage[], tools: ToolDefinitions) => PromptRecord,
  answer: (call: number, messages: BaseMessage[]) => AIMessage,
): RecordingModel {
  const model = fakeModel();
  let tools: ToolDefinitions = [];
  const bind = model.bindTools.bind(model);
  model.bindTools = (bound) => {
    tools = [...bound];
    return bind(bound);
  };
  for (let call = 0; call < replies; call++) {
    model.respond((messages: BaseMessage[]) => {
      const record = measure(messages, tools);
      const reply = answer(call, messages);
      reply.usage_metadata = { input_tokens: record.tokens, output_tokens: 40, total_tokens: record.tokens + 40 };
      return reply;
    });
  }
  return model;
}

let ids = 0;
export function toolCallReply(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: "", tool_calls: [{ name, args, id: `ctx_${++ids}`, type: "tool_call" }] });
}

export function sum(records: readonly PromptRecord[]): number {
  return records.reduce((total, r) => total + r.tokens, 0);
}

export function largest(records: readonly PromptRecord[]): number {
  return records.reduce((max, r) => Math.max(max, r.tokens), 0);
}
