import type { PriceLayer } from "../../platform/config/index.js";
import { DEFAULT_PRICE_TABLE, priceRules, type PriceRule, type PriceRules } from "./prices.js";

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

/**
 * The price table of a session, first match wins: the configured prices (src/config: MINI_CURSOR_PRICES, then
 * `prices` in `<workspace>/mini-cursor.json`, then in the user config), then 0 for a local endpoint, then the
 * built-in (approximate) table.
 */
export function priceTableFor(layers: readonly PriceLayer[], baseUrl?: string): PriceRules {
  const rules: PriceRule[][] = layers.map((layer) => priceRules(layer.prices, layer.source));
  if (isLocalEndpoint(baseUrl)) rules.push([{ pattern: "*", price: { input: 0, output: 0 }, source: "local endpoint" }]);
  rules.push([...DEFAULT_PRICE_TABLE]);
  return rules.flat();
}
