import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { formatSize } from "../../core/index.js";
import { isArtifact } from "../run.js";

/**
 * Large arguments and replies of earlier turns (a 1 MB write_file of generated data, a 1 MB answer in prose) are
 * replaced in the prompt by a short note that says what happened (tool, path, size, outcome), so the model does not
 * redo it and the prompt stays within budget. Only the prompt is changed; the stored transcript keeps everything.
 * The elided copy of a message is made once and reused for every later prompt: a 1 MB argument is measured once,
 * never serialized again.
 */

/** Strings of at most this many characters stay; like one tool result, at most about a quarter of the budget. */
export function elisionLimit(budgetTokens: number): number {
  return Math.max(1_000, Math.min(20_000, budgetTokens));
}

/** What the model said before a long reply was elided: enough to keep its train of thought. */
const KEEP_REPLY_CHARS = 1_000;

interface Elided {
  limit: number;
  message: BaseMessage;
}

const cache = new WeakMap<BaseMessage, Elided>();

/** The prompt's messages with large arguments and replies of model turns elided (the same objects when nothing is). */
export function elideLarge(messages: readonly BaseMessage[], limit: number): BaseMessage[] {
  let results: Map<string, ToolMessage> | undefined;
  return messages.map((m) => {
    if (!AIMessage.isInstance(m)) return m;
    const cached = cache.get(m);
    if (cached?.limit === limit) return cached.message;
    if (!isLarge(m, limit)) {
      cache.set(m, { limit, message: m });
      return m;
    }
    results ??= resultsById(messages);
    const calls = m.tool_calls ?? [];
    const answered = calls.every((c) => results?.has(c.id ?? ""));
    const elided = elideMessage(m, limit, results);
    // A call still waiting for its result would say less than it will later: only then is the copy made again.
    if (answered) cache.set(m, { limit, message: elided });
    return elided;
  });
}

function resultsById(messages: readonly BaseMessage[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const m of messages) if (ToolMessage.isInstance(m)) results.set(m.tool_call_id, m);
  return results;
}

function isLarge(m: AIMessage, limit: number): boolean {
  if (contentLength(m.content) > limit) return true;
  for (const call of m.tool_calls ?? []) if (hasLongString(call.args, limit)) return true;
  for (const call of m.invalid_tool_calls ?? []) if ((call.args?.length ?? 0) > limit) return true;
  return false;
}

function contentLength(content: BaseMessage["content"]): number {
  if (typeof content === "string") return content.length;
  let length = 0;
  for (const part of content) if (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string") length += part.text.length;
  return length;
}

/** Looks at string lengths only: nothing is serialized. */
function hasLongString(value: unknown, limit: number): boolean {
  if (typeof value === "string") return value.length > limit;
  if (Array.isArray(value)) return value.some((v) => hasLongString(v, limit));
  if (typeof value === "object" && value !== null) return Object.values(value).some((v) => hasLongString(v, limit));
  return false;
}

function elideMessage(m: AIMessage, limit: number, results: Map<string, ToolMessage>): AIMessage {
  const { tool_calls: _raw, function_call: _fn, ...kwargs } = m.additional_kwargs;
  return new AIMessage({
    id: m.id,
    name: m.name,
    content: elideContent(m.content, limit),
    tool_calls: (m.tool_calls ?? []).map((call) => elideCall(call, limit, results.get(call.id ?? ""))),
    invalid_tool_calls: (m.invalid_tool_calls ?? []).map((call) =>
      (call.args?.length ?? 0) > limit
        ? { ...call, args: `[${call.name ?? "tool"} arguments: ${formatSize(Buffer.byteLength(call.args ?? ""))}, not valid JSON; elided from this prompt]` }
        : call,
    ),
    additional_kwargs: kwargs,
    response_metadata: m.response_metadata,
    usage_metadata: m.usage_metadata,
  });
}

function elideText(text: string): string {
  const rest = text.slice(KEEP_REPLY_CHARS);
  return `${text.slice(0, KEEP_REPLY_CHARS)}\n[… your reply went on for ${formatSize(Buffer.byteLength(rest))} more (${formatSize(Buffer.byteLength(text))} in all); elided from this prompt to keep it within budget]`;
}

function elideContent(content: BaseMessage["content"], limit: number): AIMessage["content"] {
  if (typeof content === "string") return content.length > limit ? elideText(content) : content;
  return content.map((part) =>
    typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" && part.text.length > limit
      ? { ...part, text: elideText(part.text) }
      : part,
  );
}

function elideCall(call: ToolCall, limit: number, result: ToolMessage | undefined): ToolCall {
  const args = call.args as Record<string, unknown>;
  const path = typeof args.path === "string" ? ` ${args.path.length > 200 ? `${args.path.slice(0, 199)}…` : args.path}` : "";
  const outcome = outcomeOf(result);
  const elideValue = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      if (value.length <= limit) return value;
      const size = formatSize(Buffer.byteLength(value));
      if (call.name === "write_file" && key === "content")
        return `[write_file${path}: ${size} ${outcome}; the content is elided from this prompt (read_file shows part of it)]`;
      return `[${call.name}${path} ${key}: ${size}${result?.status === "error" ? ", the call failed (see the tool result)" : ""}; elided from this prompt]`;
    }
    if (Array.isArray(value)) return value.map((v) => elideValue(v, key));
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, elideValue(v, k)]));
    return value;
  };
  return { ...call, args: elideValue(args, "") as Record<string, unknown> };
}

/** What the call did, from its result: a write that changed nothing or failed must not read as written. */
function outcomeOf(result: ToolMessage | undefined): string {
  if (!result) return "sent";
  if (result.status === "error") return "not written (see the tool result)";
  const artifact: unknown = result.artifact;
  if (isArtifact(artifact) && artifact.filesChanged?.length === 0) return "unchanged (the file already had this content)";
  return "written";
}
