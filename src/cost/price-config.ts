import { z } from "zod";
import { parseConfigJson, readConfigFile } from "../runtime/config-file.js";
import { projectConfigPath, userConfigPath } from "../safety/config.js";
import { DEFAULT_PRICE_TABLE, priceMapSchema, priceRules, type PriceMap, type PriceRule, type PriceTable } from "./prices.js";

/** Only the `prices` key: the other keys of the same files belong to the safety config (src/safety/config.ts). */
const pricesFileSchema = z.object({ prices: priceMapSchema.optional() });

function readPricesFile(file: string): PriceMap | undefined {
  return readConfigFile(file, pricesFileSchema)?.prices;
}

function readPricesEnv(value: string | undefined): PriceMap | undefined {
  return value ? parseConfigJson("MINI_CURSOR_PRICES", value, priceMapSchema) : undefined;
}

/** A model served from this machine costs nothing per token (Ollama, vLLM or llama.cpp on loopback). */
export function isLocalEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

export interface PriceSources {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** The model endpoint; a loopback one makes every model it serves free unless a configured price says otherwise. */
  baseUrl?: string;
}

/**
 * The price table of a session, first match wins: MINI_CURSOR_PRICES, then `prices` in `<workspace>/mini-cursor.json`,
 * then in the user config, then 0 for a local endpoint, then the built-in (approximate) table.
 * Throws ConfigError on a malformed source.
 */
export function loadPriceTable(sources: PriceSources): PriceTable {
  const layers: PriceRule[][] = [];
  const fromEnv = readPricesEnv(sources.env.MINI_CURSOR_PRICES);
  if (fromEnv) layers.push(priceRules(fromEnv, "MINI_CURSOR_PRICES"));
  const projectFile = projectConfigPath(sources.workspace);
  const fromProject = readPricesFile(projectFile);
  if (fromProject) layers.push(priceRules(fromProject, projectFile));
  const userFile = userConfigPath(sources.env);
  const fromUser = readPricesFile(userFile);
  if (fromUser) layers.push(priceRules(fromUser, userFile));
  if (isLocalEndpoint(sources.baseUrl)) layers.push([{ pattern: "*", price: { input: 0, output: 0 }, source: "local endpoint" }]);
  layers.push([...DEFAULT_PRICE_TABLE]);
  return layers.flat();
}
