import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";

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
