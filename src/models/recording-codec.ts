import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { AIMessage, type BaseMessage, type InputTokenDetails } from "@langchain/core/messages";

/**
 * What one recorded model call holds, and how it is stored. Not the whole request: every call of an agent run repeats
 * its whole conversation, so full requests grow with the square of the run's length. A request is kept as a hash of
 * the whole (to tell whether two requests were identical), its size, the offered tool names, and only its tail: the
 * messages after the last model reply, which are what is new since the previous call (the tool results that call's
 * tool calls produced, or the planner's prompt). Both parts are JSON compressed with zlib (deflate-raw).
 */
export const RECORDING_FORMAT = 1;

export interface RecordedMessage {
  role: "system" | "human" | "ai" | "tool" | "other";
  content: string;
  /** A tool message's tool name and call id, and whether the tool failed. */
  name?: string;
  toolCallId?: string;
  status?: string;
  toolCalls?: RecordedToolCall[];
  /** A system prompt is kept as its hash only: it is long and the same for every call of a role. */
  sha?: string;
}

export interface RecordedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface RecordedRequest {
  sha: string;
  messageCount: number;
  tools: string[];
  tail: RecordedMessage[];
  /**
   * On the first call of each run of the session (`run`, every `resume`): the settings that run had, as the session
   * row's `options` JSON (src/host/stored-options.ts), so a replay gives each turn its own approval mode and limits
   * rather than the ones a later `resume` left in the row. Absent in recordings from before it was kept.
   */
  settings?: string;
}

export interface RecordedResponse {
  content: string;
  toolCalls: RecordedToolCall[];
  invalidToolCalls: { id?: string; name?: string; args?: string; error?: string }[];
  /** `input_token_details` (cached input, `cache_read`) is absent in recordings from before it was kept. */
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number; input_token_details?: InputTokenDetails };
  finishReason?: string;
}

export function contentText(content: BaseMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

function roleOf(message: BaseMessage): RecordedMessage["role"] {
  const type: string = message.getType();
  return type === "system" || type === "human" || type === "ai" || type === "tool" ? type : "other";
}

function toolCallsOf(message: BaseMessage): RecordedToolCall[] {
  if (!AIMessage.isInstance(message)) return [];
  return (message.tool_calls ?? []).map((c) => ({ id: c.id ?? "", name: c.name, args: c.args }));
}

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

export function recordMessage(message: BaseMessage): RecordedMessage {
  const role = roleOf(message);
  const content = contentText(message.content);
  if (role === "system") return { role, content: "", sha: sha(content) };
  const recorded: RecordedMessage = { role, content };
  if (message.getType() === "tool") {
    const tool = message as BaseMessage & { tool_call_id?: string; status?: string };
    if (message.name) recorded.name = message.name;
    if (tool.tool_call_id) recorded.toolCallId = tool.tool_call_id;
    if (tool.status) recorded.status = tool.status;
  }
  const calls = toolCallsOf(message);
  if (calls.length > 0) recorded.toolCalls = calls;
  return recorded;
}

/** The messages after the last model reply: what is new in this request. */
export function requestTail(messages: readonly BaseMessage[]): BaseMessage[] {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.getType() === "ai") last = i;
  });
  return messages.slice(last + 1);
}

/** Hashed message by message: building one JSON text of a long conversation first took milliseconds per call. */
function requestHash(messages: readonly BaseMessage[]): string {
  const hash = createHash("sha256");
  for (const m of messages) {
    hash.update(`${m.getType()}\0`);
    hash.update(contentText(m.content));
    const calls = toolCallsOf(m);
    hash.update(calls.length > 0 ? `\0${JSON.stringify(calls)}\n` : "\n");
  }
  return hash.digest("hex").slice(0, 32);
}

export function recordRequest(messages: readonly BaseMessage[], tools: readonly string[]): RecordedRequest {
  return { sha: requestHash(messages), messageCount: messages.length, tools: [...tools], tail: requestTail(messages).map(recordMessage) };
}

export function recordResponse(message: BaseMessage, finishReason?: unknown): RecordedResponse {
  const ai = AIMessage.isInstance(message) ? message : null;
  const response: RecordedResponse = {
    content: contentText(message.content),
    toolCalls: toolCallsOf(message),
    invalidToolCalls: (ai?.invalid_tool_calls ?? []).map((c) => ({
      ...(c.id ? { id: c.id } : {}),
      ...(c.name ? { name: c.name } : {}),
      ...(c.args ? { args: c.args } : {}),
      ...(c.error ? { error: c.error } : {}),
    })),
  };
  if (ai?.usage_metadata) {
    const { input_tokens, output_tokens, total_tokens, input_token_details } = ai.usage_metadata;
    // The cached input is kept so a replayed session reports and prices it as the recorded one did.
    response.usage = { input_tokens, output_tokens, total_tokens, ...(input_token_details ? { input_token_details } : {}) };
  }
  if (typeof finishReason === "string") response.finishReason = finishReason;
  return response;
}

/** The recorded reply as the message the model would have returned. */
export function replayedMessage(response: RecordedResponse): AIMessage {
  return new AIMessage({
    content: response.content,
    tool_calls: response.toolCalls.map((c) => ({ ...c, type: "tool_call" as const })),
    invalid_tool_calls: response.invalidToolCalls.map((c) => ({ type: "invalid_tool_call" as const, ...c })),
    ...(response.usage ? { usage_metadata: response.usage } : {}),
    response_metadata: response.finishReason ? { finish_reason: response.finishReason } : {},
  });
}

export function encode(value: RecordedRequest | RecordedResponse): Buffer {
  // Level 1: several times faster than the default and still about 5-10x smaller than the text.
  return deflateRawSync(Buffer.from(JSON.stringify(value), "utf8"), { level: 1 });
}

export function decode<T extends RecordedRequest | RecordedResponse>(blob: Buffer): T {
  return JSON.parse(inflateRawSync(blob).toString("utf8")) as T;
}
