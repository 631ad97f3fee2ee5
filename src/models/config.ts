import type { ModelRole, ModelSettings } from "../platform/config/index.js";

/** Model settings are resolved by src/config (resolveConfig / resolveModelConfig); their shapes live there too. */
export {
  DEFAULT_OLLAMA_URL,
  DEFAULT_OPENAI_MODEL,
  MODEL_HELP,
  MODEL_ROLES,
  type ModelRole,
  type ModelSettings,
  type OllamaProbe,
} from "../platform/config/index.js";

export function modelFor(settings: ModelSettings, role: ModelRole): string {
  return settings.roleModels[role] ?? settings.model;
}
