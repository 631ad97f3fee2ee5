/**
 * Configuration: one file schema, one resolver, one precedence (flags > environment > `mini-cursor.json` > user
 * config > defaults). A low layer: it imports only src/runtime, zod and node; the modules that use settings import
 * their shapes from here.
 */
export {
  APPROVAL_MODES,
  approvalModeSchema,
  CONFIG_FILE_KEYS,
  configFileSchema,
  modelPriceSchema,
  priceMapSchema,
  type ApprovalMode,
  type ConfigFile,
  type ModelPrice,
  type PriceMap,
} from "./schema.js";
export { ConfigError, envValue, loadConfigFiles, memoryDataDir, projectConfigPath, userConfigPath, type ConfigFileLayer, type ConfigFiles } from "./sources.js";
export { flagLabel, type ConfigFlags, type FlagSource } from "./values.js";
export {
  DEFAULT_MODEL_RETRIES,
  DEFAULT_MODEL_TIMEOUT_MS,
  DEFAULT_OLLAMA_URL,
  DEFAULT_OPENAI_MODEL,
  MODEL_HELP,
  MODEL_ROLES,
  resolveModelConfig,
  modelSettingsFrom,
  needsOllama,
  ollamaUrl,
  type OllamaFound,
  type ModelRole,
  type ModelSettings,
  type OllamaProbe,
} from "./model.js";
export {
  resolveConfig,
  resolveConfigExceptModel,
  resolveEmbeddingConfig,
  resolveLimitsConfig,
  resolveMemoryConfig,
  resolveMemoryStoreConfig,
  resolvePriceConfig,
  resolveSafetyConfig,
  resolveSandboxConfig,
  type EmbeddingSettings,
  type LimitSettings,
  type MemorySettings,
  type MemoryStoreSettings,
  type PriceLayer,
  type ResolveConfigOptions,
  type ResolvedConfig,
  type SafetySettings,
  type SandboxSettings,
} from "./resolve.js";
export { DEFAULT_MCP_CALL_TIMEOUT_MS, expandVariables, mcpJsonPath, resolveMcpConfig, type McpServerSettings } from "./mcp-settings.js";
export { mcpTrustPath, trustedMcpServers, updateTrustedMcpServers } from "./mcp-trust.js";
export { resolveIndexConfig, type StoreSwitch } from "./memory-settings.js";
export { resolveWebConfig, WEB_DEFAULTS, type WebSearchSettings, type WebSettings } from "./web-settings.js";
export { flagsFromRunConfig, type RunConfigInput } from "./run-config.js";
export { postgresTarget, resolveDatabaseTarget, type PostgresTarget } from "./database-settings.js";
export {
  DEFAULT_DIAGNOSTICS_MAX_PROBLEMS,
  DEFAULT_DIAGNOSTICS_TIMEOUT_MS,
  DIAGNOSTICS_DEFAULTS,
  resolveDiagnosticsConfig,
  type DiagnosticsCommand,
  type DiagnosticsSettings,
} from "./diagnostics-settings.js";
export { DEFAULT_STUDIO_PROCESS_IDLE_SECONDS, resolveStudioProcessIdle } from "./studio-settings.js";
