import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { getConfig } from "@langchain/langgraph";
import { flagsFromRunConfig, modelSettingsFrom, type ModelRole, type OllamaFound } from "../config/index.js";
import { createOpenAICompatibleProvider, type ModelProvider } from "../models/chat-model.js";

/**
 * Models for Studio and API runs: each run's settings are resolved by the one resolver (src/config) from the run's
 * `configurable` (model, baseUrl, apiKey, per-role models) over the environment, exactly as the CLI resolves flags.
 * A local Ollama is asked once, when the server loads the graph; providers are reused across runs with equal settings.
 */
export function runScopedModels(env: NodeJS.ProcessEnv, ollama: OllamaFound | null): ModelProvider {
  const providers = new Map<string, ModelProvider>();
  const current = (): ModelProvider => {
    const { flags } = flagsFromRunConfig(getConfig()?.configurable);
    const settings = modelSettingsFrom(flags, env, ollama, "configurable");
    const key = JSON.stringify(settings);
    let provider = providers.get(key);
    if (!provider) {
      provider = createOpenAICompatibleProvider(settings);
      providers.set(key, provider);
    }
    return provider;
  };
  return {
    forRole: (role: ModelRole): BaseChatModel => current().forRole(role),
    describe: (role: ModelRole): string => current().describe(role),
  };
}
