import { resolveConfig, type ConfigFlags, type ResolvedConfig } from "../platform/config/index.js";
import { priceTableFor } from "../models/cost/price-config.js";
import type { PriceTable } from "../models/cost/prices.js";
import { probeOllama } from "../models/ollama-probe.js";
import { safetyPolicyFrom } from "../safety/config.js";
import type { SafetyPolicy } from "../core/index.js";
import { setupModels, type ModelSetup } from "./model-setup.js";

/** The settings of a session, resolved without loading the model client. */
export interface ResolvedSessionConfig {
  config: ResolvedConfig;
  safety: SafetyPolicy;
  prices: PriceTable;
}

/** What `run` and `resume` need from the configuration. */
export interface SessionConfig extends ResolvedSessionConfig {
  models: ModelSetup;
}

/**
 * Resolves every setting once (src/config: flags > environment > mini-cursor.json > user config > defaults),
 * asking a local Ollama only when no endpoint is configured. A ConfigError becomes exit 2 in main.ts.
 */
export async function resolveSessionConfig(flags: ConfigFlags, workspace: string, env: NodeJS.ProcessEnv): Promise<ResolvedSessionConfig> {
  const config = await resolveConfig({ flags, env, workspace, probeOllama: (url) => probeOllama(url) });
  return { config, safety: safetyPolicyFrom(config.safety), prices: priceTableFor(config.prices, config.model.baseUrl) };
}

/** The settings and the models built from them. */
export async function setupSessionConfig(flags: ConfigFlags, workspace: string, env: NodeJS.ProcessEnv): Promise<SessionConfig> {
  const resolved = await resolveSessionConfig(flags, workspace, env);
  return { ...resolved, models: await setupModels(resolved.config.model) };
}
