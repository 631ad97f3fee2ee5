import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAICompletions } from "@langchain/openai";
import { modelFor, type ModelRole, type ModelSettings } from "./config.js";

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
 * Non-streaming calls: usage comes from the provider, and the constructor timeout bounds every attempt.
 */
export function createOpenAICompatibleProvider(settings: ModelSettings): ModelProvider {
  const cache = new Map<string, BaseChatModel>();
  return {
    forRole(role) {
      const name = modelFor(settings, role);
      let model = cache.get(name);
      if (!model) {
        model = new ChatOpenAICompletions({
          model: name,
          apiKey: settings.apiKey,
          temperature: 0,
          timeout: settings.timeoutMs,
          maxRetries: settings.maxRetries,
          configuration: settings.baseUrl ? { baseURL: settings.baseUrl } : {},
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
