import { createHash } from "node:crypto";
import type { ModelCallHandler } from "./deps.js";

type ModelCallRequest = Parameters<ModelCallHandler>[0];

/**
 * OpenAI's `prompt_cache_key` for one agent of one session: requests with the same key and the same beginning are
 * routed to the same cache, so a session's coder runs share their system prompt and tools, and each run its growing
 * transcript (issue 46). A hash of the thread, so the key is short and says nothing. None outside a thread.
 */
export function promptCacheKey(threadId: unknown, agent: string): string | undefined {
  if (typeof threadId !== "string" || threadId === "") return undefined;
  return `mini-cursor-${agent}-${createHash("sha256").update(threadId).digest("hex").slice(0, 16)}`;
}

/** The request's model settings with the session's cache key for `agent` (passed to the model as a call option). */
export function withPromptCacheKey(request: ModelCallRequest, agent: string): Pick<ModelCallRequest, "modelSettings"> {
  const key = promptCacheKey(request.runtime.configurable?.thread_id, agent);
  return key ? { modelSettings: { ...request.modelSettings, promptCacheKey: key } } : {};
}
