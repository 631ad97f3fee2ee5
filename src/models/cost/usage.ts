import type { TokenUsage, UsageBase, UsageByKey, UsageLine, UsageSummary } from "../../core/index.js";
import { costUsd, findPrice, type PriceTable } from "./prices.js";

const ZERO: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, calls: 0, estimatedCalls: 0 };

/** Usage is kept per agent and model, so a cheap researcher and a strong coder are priced apart. */
export function usageKey(agent: string, model: string): string {
  return `${agent}:${model}`;
}

/** Agent and model of a key; the model is "" for sessions recorded before models were (cost unknown). */
export function splitUsageKey(key: string): { agent: string; model: string } {
  const at = key.indexOf(":");
  return at < 0 ? { agent: key, model: "" } : { agent: key.slice(0, at), model: key.slice(at + 1) };
}

/** Older checkpoints lack newer fields: read every entry through this. */
function entry(u: Partial<TokenUsage> | undefined): TokenUsage {
  return { ...ZERO, ...u };
}

/** The state reducer: adds usage per key. */
export function addUsage(current: UsageByKey, next: UsageByKey): UsageByKey {
  const out: UsageByKey = { ...current };
  for (const [key, u] of Object.entries(next)) {
    const prev = entry(out[key]);
    const add = entry(u);
    out[key] = {
      inputTokens: prev.inputTokens + add.inputTokens,
      cachedInputTokens: prev.cachedInputTokens + add.cachedInputTokens,
      outputTokens: prev.outputTokens + add.outputTokens,
      calls: prev.calls + add.calls,
      estimatedCalls: prev.estimatedCalls + add.estimatedCalls,
    };
  }
  return out;
}

export type { UsageLine, UsageSummary };

/** Micro-dollars are plenty, and they keep float noise (0.027999999999999997) out of reports and JSON. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1_000_000) / 1_000_000;
}

export function summarizeUsage(usage: UsageByKey, prices: PriceTable): UsageSummary {
  const lines: UsageLine[] = [];
  const unpriced = new Set<string>();
  let knownCostUsd = 0;
  const totals = { ...ZERO };
  for (const [key, raw] of Object.entries(usage)) {
    const u = entry(raw);
    const { agent, model } = splitUsageKey(key);
    const rule = findPrice(model, prices);
    const cost = rule ? roundUsd(costUsd(u, rule.price)) : null;
    if (cost === null && u.inputTokens + u.outputTokens > 0) unpriced.add(model || `${agent} (model not recorded)`);
    knownCostUsd = roundUsd(knownCostUsd + (cost ?? 0));
    totals.inputTokens += u.inputTokens;
    totals.cachedInputTokens += u.cachedInputTokens;
    totals.outputTokens += u.outputTokens;
    totals.calls += u.calls;
    totals.estimatedCalls += u.estimatedCalls;
    lines.push({ agent, model, ...u, costUsd: cost, priceSource: rule?.source ?? null });
  }
  return { ...totals, costUsd: unpriced.size > 0 ? null : knownCostUsd, knownCostUsd, unpricedModels: [...unpriced], lines };
}

/** The session's usage summed for a sub-agent run's state (src/core/usage.ts UsageBase). */
export function usageBaseOf(usage: UsageByKey, prices: PriceTable): UsageBase {
  const s = summarizeUsage(usage, prices);
  return {
    inputTokens: s.inputTokens,
    cachedInputTokens: s.cachedInputTokens,
    outputTokens: s.outputTokens,
    calls: s.calls,
    estimatedCalls: s.estimatedCalls,
    knownCostUsd: s.knownCostUsd,
    unpriced: s.costUsd === null,
  };
}
