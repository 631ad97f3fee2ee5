import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { formatSize } from "../../core/index.js";
import { COMPACTED, isArtifact, replyWith, runOf, wasCompacted } from "../run.js";
import type { ModelCallDeps, ModelCallWrap } from "./deps.js";
import { compactPrompt } from "./context-compaction.js";

/**
 * Keeps every prompt under the run's token budget (fitToBudget below). Only the request's messages change: the stored
 * transcript keeps everything. Hand-written rather than LangChain's contextEditingMiddleware: its trigger is fixed
 * when the agent is built (our budget is per session, in the run's context), it edits the state's own message list
 * in place, and its clearing moves at every call, which defeats prompt caching (context-compaction.ts); its
 * summarization middleware spends a model call and loses exit codes.
 */
export function fitContext(deps: Pick<ModelCallDeps, "spec" | "emit">): ModelCallWrap {
  return async (request, handler) => {
    const { maxPromptTokens: budget, stepId } = runOf(request.state, request.runtime.context);
    const view = fitToBudget(request.messages, budget, toolsOverhead(request.tools));
    const reply = await handler({ ...request, messages: view.messages });
    if (!view.cleared || !AIMessage.isInstance(reply)) return reply;
    if (!wasCompacted(request.state.messages)) {
      deps.emit({
        type: "notice",
        level: "info",
        message: `${deps.spec.name} ${stepId}: older context ${view.summarized > 0 ? `summarized (${view.summarized} turns)` : "cleared"} to keep prompts under ${budget} tokens`,
      });
    }
    reply.response_metadata = { ...reply.response_metadata, [COMPACTED]: true };
    return reply;
  };
}

/** The prompt a model call is sent: within the budget, tool definitions (`overhead`) included. */
export interface BudgetView {
  messages: BaseMessage[];
  tokens: number;
  /** Some older context is cleared or folded in this prompt. */
  cleared: boolean;
  /** Turns folded into the summary. */
  summarized: number;
}

const LAST_RESORT_ELISION = 500;

/**
 * The prompt for the next model call of a run, without touching the stored transcript: large arguments and replies
 * of earlier turns elided (elideLarge below); then, once the run outgrows the budget, older tool results cleared,
 * then their calls' arguments, then the oldest turns folded into a summary that keeps what later steps need (files
 * touched, commands with exit codes, errors), in batches a prompt cache can follow (context-compaction.ts). Only
 * when the newest turn alone is too big are its results cut, for this request.
 */
export function fitToBudget(stored: readonly BaseMessage[], budget: number, overhead: number, elideOver = elisionLimit(budget)): BudgetView {
  const limit = budget - overhead;
  const messages = elideLarge(stored, elideOver);
  let tokens = countTokens(messages);
  // Every earlier request was a prefix of this one: if this one fits, none was compacted.
  if (tokens <= limit) return { messages, tokens: tokens + overhead, cleared: false, summarized: 0 };
  const { messages: compacted, compaction } = compactPrompt(messages, limit, messageChars);
  let view = compacted;
  tokens = countTokens(view);
  // The newest turn is never folded; when its results alone are too big (several large reads in one reply), cut them.
  if (tokens > limit) view = cutNewestResults(view, tokens - limit);
  tokens = countTokens(view);
  // Several calls of the newest reply with arguments each just under the elision limit: elide those too.
  if (tokens > limit) view = elideLarge(view, LAST_RESORT_ELISION);
  tokens = countTokens(view);
  return { messages: view, tokens: tokens + overhead, cleared: true, summarized: compaction.folded };
}

const CUT_NOTE = "\n[… cut to keep the prompt within budget; read a smaller range or one file at a time]";

/** Shortens the tool results after the last model reply, largest first, by about `excessTokens` in all. */
function cutNewestResults(view: BaseMessage[], excessTokens: number): BaseMessage[] {
  const lastAi = view.findLastIndex((m) => AIMessage.isInstance(m));
  const out = [...view];
  // 4 characters per token, plus room for the notes and a margin.
  let excess = excessTokens * 4 + 400;
  const results = out
    .map((m, i) => ({ m, i }))
    .filter(({ m, i }) => i > lastAi && ToolMessage.isInstance(m))
    .sort((a, b) => textLength(b.m) - textLength(a.m));
  for (const { m, i } of results) {
    if (excess <= 0) break;
    const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    const keep = Math.max(200, text.length - excess);
    if (keep >= text.length) continue;
    excess -= text.length - keep;
    const tool = m as ToolMessage;
    out[i] = new ToolMessage({ tool_call_id: tool.tool_call_id, name: tool.name, content: `${text.slice(0, keep)}${CUT_NOTE}`, status: tool.status });
  }
  return out;
}

function textLength(m: BaseMessage): number {
  return typeof m.content === "string" ? m.content.length : JSON.stringify(m.content).length;
}

/** How the context budget counts a prompt: characters / 4, as LangChain's `countTokensApproximately` does. */
const charsCache = new WeakMap<BaseMessage, number>();

/**
 * The characters LangChain's `countTokensApproximately` counts for one message (its text, the JSON of its tool
 * calls, a result's call id), remembered per message: messages are not changed once made, and the prompt of every
 * turn repeats all earlier ones, so each is measured once instead of being serialized again at every turn.
 */
export function messageChars(m: BaseMessage): number {
  let chars = charsCache.get(m);
  if (chars !== undefined) return chars;
  const c = m.content;
  let text = 0;
  if (typeof c === "string") text = c.length;
  else if (Array.isArray(c)) {
    for (const item of c as unknown[]) {
      if (typeof item === "string") text += item.length;
      else if (
        typeof item === "object" &&
        item !== null &&
        (item as { type?: unknown }).type === "text" &&
        typeof (item as { text?: unknown }).text === "string"
      ) {
        text += (item as { text: string }).text.length;
      }
    }
  }
  if (AIMessage.isInstance(m) && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) text += JSON.stringify(m.tool_calls).length;
  if (ToolMessage.isInstance(m)) text += (m.tool_call_id ?? "").length;
  chars = text;
  charsCache.set(m, chars);
  return chars;
}

/** Tokens of a prompt at 4 characters per token, as LangChain's `countTokensApproximately` counts them. */
export function countTokens(messages: readonly BaseMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += messageChars(m);
  return Math.ceil(chars / 4);
}

function toJsonSchema(tool: unknown): unknown {
  const schema: unknown = typeof tool === "object" && tool !== null && "schema" in tool ? tool.schema : undefined;
  if (typeof schema === "object" && schema !== null && "toJSONSchema" in schema && typeof schema.toJSONSchema === "function") {
    return (schema as { toJSONSchema: () => unknown }).toJSONSchema();
  }
  return schema;
}

const overheadCache = new WeakMap<object, number>();

/** Tool definitions travel with every prompt: their tokens count against the budget (4 characters per token). */
export function toolsOverhead(tools: readonly unknown[]): number {
  let total = 0;
  for (const tool of tools) {
    if (typeof tool !== "object" || tool === null) continue;
    let tokens = overheadCache.get(tool);
    if (tokens === undefined) {
      const t = tool as { name?: unknown; description?: unknown };
      tokens = Math.ceil(JSON.stringify({ name: t.name, description: t.description, schema: toJsonSchema(tool) }).length / 4);
      overheadCache.set(tool, tokens);
    }
    total += tokens;
  }
  return total;
}

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
  return replyWith(m, {
    content: elideContent(m.content, limit),
    tool_calls: (m.tool_calls ?? []).map((call) => elideCall(call, limit, results.get(call.id ?? ""))),
    invalid_tool_calls: (m.invalid_tool_calls ?? []).map((call) =>
      (call.args?.length ?? 0) > limit
        ? { ...call, args: `[${call.name ?? "tool"} arguments: ${formatSize(Buffer.byteLength(call.args ?? ""))}, not valid JSON; elided from this prompt]` }
        : call,
    ),
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
