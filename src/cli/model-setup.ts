import type { ModelSettings } from "../config/index.js";
import { createOpenAICompatibleProvider, type ModelProvider } from "../models/chat-model.js";

export interface ModelSetup {
  settings: ModelSettings;
  provider: ModelProvider;
}

export function setupModels(settings: ModelSettings): ModelSetup {
  return { settings, provider: createOpenAICompatibleProvider(settings) };
}

export function describeModels(settings: ModelSettings): string {
  const overrides = Object.entries(settings.roleModels).map(([role, m]) => `${role}=${m}`);
  return `${settings.model}${overrides.length ? ` (${overrides.join(", ")})` : ""} via ${settings.source}`;
}
