import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { getConfig } from "@langchain/langgraph";
import { loadCustomAgents } from "../../agents/index.js";
import { flagsFromRunConfig, MODEL_ROLES, modelSettingsFrom, type ModelRole, type ModelSettings, type OllamaFound } from "../../platform/config/index.js";
import { createOpenAICompatibleProvider, type ModelProvider } from "../../models/chat-model.js";

const BUILT_IN_ROLES: ReadonlySet<string> = new Set(MODEL_ROLES);

/**
 * Models for Studio and API runs: each run's settings are resolved by the one resolver (src/config) from the run's
 * `configurable` (model, baseUrl, apiKey, per-role models) over the environment, exactly as the CLI resolves flags.
 * A custom agent whose file names a `model` calls that model on the run's endpoint, as in the CLI
 * (src/host/custom-agents.ts). A local Ollama is asked once, when the server loads the graph; providers are reused
 * across runs with equal settings.
 */
export function runScopedModels(env: NodeJS.ProcessEnv, ollama: OllamaFound | null): ModelProvider {
  const providers = new Map<string, ModelProvider>();
  const current = (role: ModelRole): ModelProvider => {
    const configurable = getConfig()?.configurable;
    const { workspace, flags } = flagsFromRunConfig(configurable);
    const settings = withAgentModel(modelSettingsFrom(flags, env, ollama, "configurable"), role, workspace, env);
    const key = JSON.stringify(settings);
    let provider = providers.get(key);
    if (!provider) {
      provider = createOpenAICompatibleProvider(settings);
      providers.set(key, provider);
    }
    return provider;
  };
  return {
    forRole: (role: ModelRole): BaseChatModel => current(role).forRole(role),
    describe: (role: ModelRole): string => current(role).describe(role),
  };
}

/** Built-in roles take the run's settings; a custom agent's file may name its own model (its files are read again). */
function withAgentModel(settings: ModelSettings, role: ModelRole, workspace: string | undefined, env: NodeJS.ProcessEnv): ModelSettings {
  if (BUILT_IN_ROLES.has(role)) return settings;
  const own = loadCustomAgents(workspace, env).agents.find((agent) => agent.name === role)?.model;
  return own ? { ...settings, roleModels: { ...settings.roleModels, [role]: own } } : settings;
}
