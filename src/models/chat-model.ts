import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { CheckedChatCompletions } from "./checked-completions.js";
import { modelFor, type ModelRole, type ModelSettings } from "./config.js";
import { quietLangChainUpgradeNotice } from "./quiet-notices.js";

/**
 * Provides the chat model for a role. Injected into the graph so tests can script the model and
 * Studio runs can pick the endpoint from the run's configurable settings.
 */
export interface ModelProvider {
  forRole(role: ModelRole): BaseChatModel;
  /** Model name shown to the user. */
  describe(role: ModelRole): string;
}

/**
 * Chat completions only: ChatOpenAI silently switches some model names to the Responses API,
 * which OpenAI-compatible servers (Ollama, vLLM, llama.cpp) do not implement.
 * Non-streaming calls: usage comes from the provider, and the constructor timeout bounds every attempt. Malformed
 * replies and rate limits are retried, and what still fails says so in one line (checked-completions.ts).
 */
export function createOpenAICompatibleProvider(settings: ModelSettings): ModelProvider {
  quietLangChainUpgradeNotice();
  const cache = new Map<string, BaseChatModel>();
  const endpoint = settings.baseUrl ?? "https://api.openai.com/v1";
  return {
    forRole(role) {
      const name = modelFor(settings, role);
      let model = cache.get(name);
      if (!model) {
        model = new CheckedChatCompletions({
          model: name,
          apiKey: settings.apiKey,
          baseUrl: settings.baseUrl,
          timeoutMs: settings.timeoutMs,
          maxRetries: settings.maxRetries,
          endpoint,
          ...(settings.promptCacheKey ? { promptCacheKey: settings.promptCacheKey } : {}),
        });
        cache.set(name, model);
      }
      return model;
    },
    describe(role) {
      return modelFor(settings, role);
    },
  };
}
