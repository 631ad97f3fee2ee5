import { AIMessage, type BaseMessage } from "@langchain/core/messages";

/** The usual rule of thumb for English and code: about four characters per token. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function contentChars(content: BaseMessage["content"]): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const part of content) {
    if (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string") chars += part.text.length;
  }
  return chars;
}

/** Characters a message puts on the wire: its text plus the names and arguments of the tools it calls. */
export function messageChars(message: BaseMessage): number {
  let chars = contentChars(message.content);
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) chars += call.name.length + JSON.stringify(call.args).length;
  }
  return chars;
}

export interface CallUsage {
  inputTokens: number;
  /** The part of inputTokens the provider served from its prompt cache (0 when it said nothing or was estimated). */
  cachedInputTokens: number;
  outputTokens: number;
  /** The provider sent no usage: the counts are chars/4 estimates. */
  estimated: boolean;
}

/**
 * Tokens of one model call: the provider's `usage_metadata` when it sent any, else an estimate from the prompt
 * and the reply (chars/4). `promptOverheadTokens` covers what travels outside the messages (tool definitions).
 */
export function measureCall(prompt: readonly BaseMessage[], reply: AIMessage, promptOverheadTokens = 0): CallUsage {
  const usage = reply.usage_metadata;
  // Some local servers send a usage object of zeros: a real prompt is never 0 tokens, so treat it as missing.
  if (usage && (usage.input_tokens > 0 || usage.output_tokens > 0)) {
    return {
      inputTokens: usage.input_tokens,
      cachedInputTokens: usage.input_token_details?.cache_read ?? 0,
      outputTokens: usage.output_tokens,
      estimated: false,
    };
  }
  const promptChars = prompt.reduce((sum, m) => sum + messageChars(m), 0);
  return {
    inputTokens: estimateTokens(promptChars) + promptOverheadTokens,
    cachedInputTokens: 0,
    outputTokens: estimateTokens(messageChars(reply)),
    estimated: true,
  };
}
