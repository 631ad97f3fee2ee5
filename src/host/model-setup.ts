import type { ModelSettings } from "../platform/config/index.js";
import type { ModelProvider } from "../models/chat-model.js";

export interface ModelSetup {
  settings: ModelSettings;
  provider: ModelProvider;
}

/** Loads the model client (LangChain's OpenAI package, a good part of start-up) only when a session needs it. */
export async function setupModels(settings: ModelSettings): Promise<ModelSetup> {
  const { createOpenAICompatibleProvider } = await import("../models/chat-model.js");
  return { settings, provider: createOpenAICompatibleProvider(settings) };
}

export function describeModels(settings: ModelSettings): string {
  const overrides = Object.entries(settings.roleModels).map(([role, m]) => `${role}=${m}`);
  return `${settings.model}${overrides.length ? ` (${overrides.join(", ")})` : ""} via ${settings.source}`;
}
