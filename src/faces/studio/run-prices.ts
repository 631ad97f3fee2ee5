import { getConfig } from "@langchain/langgraph";
import { flagsFromRunConfig, loadConfigFiles, modelSettingsFrom, resolvePriceConfig, type OllamaFound } from "../../platform/config/index.js";
import { priceTableFor } from "../../models/cost/price-config.js";
import type { RunScopedPrices } from "../../models/cost/prices.js";

/**
 * Prices for Studio and API runs, resolved per run exactly as the CLI prices a session (src/host/config-setup.ts):
 * the configured prices of the run's workspace and the user, then 0 for a local endpoint, then the built-in table.
 * The endpoint is the run's own (`configurable.baseUrl`, else OPENAI_BASE_URL, else the local Ollama found when the
 * server started), so a run on 127.0.0.1 or Ollama shows $0 as the CLI does, not an unknown cost.
 */
export function runScopedPrices(env: NodeJS.ProcessEnv, ollama: OllamaFound | null): RunScopedPrices {
  return {
    rulesForRun: () => {
      const { workspace, flags } = flagsFromRunConfig(getConfig()?.configurable);
      const { baseUrl } = modelSettingsFrom(flags, env, ollama, "configurable");
      return priceTableFor(resolvePriceConfig(env, loadConfigFiles(env, workspace)), baseUrl);
    },
  };
}
