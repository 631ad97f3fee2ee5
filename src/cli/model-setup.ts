import { createOpenAICompatibleProvider, type ModelProvider } from "../models/chat-model.js";
import { ModelConfigError, resolveModelSettings, type ModelSettings } from "../models/config.js";
import { probeOllama } from "../models/ollama-probe.js";
import { UsageError } from "./exit-codes.js";

export interface ModelSetup {
  settings: ModelSettings;
  provider: ModelProvider;
}

/** Resolve the endpoint, turning configuration problems into a usage error (exit 2). */
export async function setupModels(flags: { model?: string; baseUrl?: string }, env: NodeJS.ProcessEnv): Promise<ModelSetup> {
  try {
    const settings = await resolveModelSettings(flags, env, (url) => probeOllama(url));
    return { settings, provider: createOpenAICompatibleProvider(settings) };
  } catch (error) {
    if (error instanceof ModelConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export function describeModels(settings: ModelSettings): string {
  const overrides = Object.entries(settings.roleModels).map(([role, m]) => `${role}=${m}`);
  return `${settings.model}${overrides.length ? ` (${overrides.join(", ")})` : ""} via ${settings.source}`;
}
