import type { ModelPrice, PriceMap } from "../../platform/config/index.js";
import { matchesGlob } from "../../platform/glob.js";

/** The price shapes live with the config file schema (src/platform/config/schema.ts). */
export type { ModelPrice, PriceMap };

export interface PriceRule {
  pattern: string;
  price: ModelPrice;
  /** Where the rule came from, said in reports ("built-in (approximate)", a config file, ...). */
  source: string;
}

/** Rules in priority order: the first one that matches a model name prices it. */
export type PriceRules = readonly PriceRule[];

/**
 * Prices that depend on the run being priced: a server (Studio, `langgraph dev`) serves runs with their own endpoint
 * and workspace, and each must be priced as the CLI prices that session. `rulesForRun` is asked at every lookup.
 */
export interface RunScopedPrices {
  readonly rulesForRun: () => PriceRules;
}

/** What a session is priced with: fixed rules (the CLI), or rules resolved per run (src/faces/studio/run-prices.ts). */
export type PriceTable = PriceRules | RunScopedPrices;

export function rulesOf(table: PriceTable): PriceRules {
  return "rulesForRun" in table ? table.rulesForRun() : table;
}

export const BUILT_IN_SOURCE = "built-in (approximate)";

/** A model and its dated snapshots (`gpt-4o-2024-08-06`), which providers report under their own names. */
function withSnapshots(prices: Record<string, [input: number, output: number, cachedInput?: number]>): PriceMap {
  const out: PriceMap = {};
  for (const [name, [input, output, cachedInput]] of Object.entries(prices)) {
    const price = cachedInput === undefined ? { input, output } : { input, output, cachedInput };
    out[name] = price;
    out[`${name}-20*`] = price;
  }
  return out;
}

/**
 * Approximate list prices (USD per 1M tokens: input, output, cached input) of common OpenAI and DeepSeek models.
 * Providers change them; the `prices` config key or MINI_CURSOR_PRICES overrides any of them.
 */
export const BUILT_IN_PRICES: PriceMap = withSnapshots({
  "gpt-4.1": [2, 8, 0.5],
  "gpt-4.1-mini": [0.4, 1.6, 0.1],
  "gpt-4.1-nano": [0.1, 0.4, 0.025],
  "gpt-4o": [2.5, 10, 1.25],
  "gpt-4o-mini": [0.15, 0.6, 0.075],
  "gpt-5": [1.25, 10, 0.125],
  "gpt-5-mini": [0.25, 2, 0.025],
  "gpt-5-nano": [0.05, 0.4, 0.005],
  o3: [2, 8, 0.5],
  "o3-mini": [1.1, 4.4, 0.55],
  "o4-mini": [1.1, 4.4, 0.275],
  // DeepSeek's cache-hit input prices.
  "deepseek-chat": [0.27, 1.1, 0.07],
  "deepseek-reasoner": [0.55, 2.19, 0.14],
});

/** An exact name beats any glob; among globs, the one with more literal characters wins. */
function specificity(pattern: string): number {
  return pattern.includes("*") ? pattern.replaceAll("*", "").length : Number.POSITIVE_INFINITY;
}

/** One source's prices as rules, most specific first (ties keep their written order). */
export function priceRules(map: PriceMap, source: string): PriceRule[] {
  return Object.entries(map)
    .map(([pattern, price], order) => ({ rule: { pattern, price, source }, order }))
    .sort((a, b) => specificity(b.rule.pattern) - specificity(a.rule.pattern) || a.order - b.order)
    .map(({ rule }) => rule);
}

export const DEFAULT_PRICE_TABLE: PriceRules = priceRules(BUILT_IN_PRICES, BUILT_IN_SOURCE);

/** A model name against a price key: a name or a glob (`*` is anything, `/` included), in any case. */
export function globMatches(pattern: string, name: string): boolean {
  return matchesGlob(pattern, name, "name", true);
}

/** The rule that prices `model`, or undefined when nothing does (its cost is then unknown, not 0). */
export function findPrice(model: string, table: PriceTable): PriceRule | undefined {
  if (!model) return undefined;
  return rulesOf(table).find((rule) => globMatches(rule.pattern, model));
}

/**
 * What tokens cost at a price: input served from the endpoint's prompt cache at `cachedInput` (the input price when
 * the table gives none), the rest of the input at `input`, output at `output`.
 */
export function costUsd(tokens: { inputTokens: number; cachedInputTokens?: number; outputTokens: number }, price: ModelPrice): number {
  // Never more cached tokens than input tokens, whatever an endpoint reports.
  const cached = Math.min(tokens.cachedInputTokens ?? 0, tokens.inputTokens);
  const uncached = tokens.inputTokens - cached;
  return (uncached * price.input + cached * (price.cachedInput ?? price.input) + tokens.outputTokens * price.output) / 1_000_000;
}
