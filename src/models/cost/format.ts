import type { UsageTotals } from "../../core/index.js";
import { BUILT_IN_SOURCE } from "./prices.js";
import type { UsageSummary } from "./usage.js";

/** 950, 12.3k, 1.2M: short enough for a progress line. */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Cents hide the cost of small sessions: four decimals below a dollar. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The running total the progress output shows at the end of each step. */
export function runningTotal(total: UsageTotals): string {
  const cost = total.costUsd === null ? "cost unknown" : formatUsd(total.costUsd);
  const cached = total.cachedInputTokens ? ` (${compactTokens(total.cachedInputTokens)} cached)` : "";
  return `tokens ${compactTokens(total.inputTokens)} in${cached} / ${compactTokens(total.outputTokens)} out · ${cost}${total.estimated ? " (estimated)" : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function estimatedNote(estimatedCalls: number): string {
  return estimatedCalls > 0 ? ` (${estimatedCalls} estimated at 4 characters per token: no usage data)` : "";
}

/** The usage part of the final report: totals, cost (or why it is unknown), then one line per agent and model. */
export function usageReportLines(summary: UsageSummary): string[] {
  // The input served from the endpoint's prompt cache, said only once some was reported; then on every agent line,
  // 0 included, so no line reads as "not known".
  const cachedNote = (n: number): string => (summary.cachedInputTokens > 0 ? ` (${n} cached)` : "");
  const lines = [
    `Tokens: ${summary.inputTokens} in${cachedNote(summary.cachedInputTokens)}, ${summary.outputTokens} out, ${plural(summary.calls, "model call")}${estimatedNote(summary.estimatedCalls)}`,
  ];
  if (summary.costUsd !== null) {
    const approximate = summary.lines.some((l) => l.priceSource === BUILT_IN_SOURCE && l.calls > 0);
    lines.push(`Cost: ${formatUsd(summary.costUsd)}${summary.estimatedCalls > 0 ? " (estimated)" : ""}${approximate ? " — built-in prices, approximate" : ""}`);
  } else {
    const known = summary.knownCostUsd > 0 ? `; the priced models cost ${formatUsd(summary.knownCostUsd)}` : "";
    lines.push(`Cost: unknown — no price for ${summary.unpricedModels.join(", ")} (set "prices" in mini-cursor.json or MINI_CURSOR_PRICES)${known}`);
  }
  for (const l of summary.lines) {
    const cost = l.costUsd === null ? "cost unknown" : formatUsd(l.costUsd);
    const estimated = l.estimatedCalls > 0 ? `, ${l.estimatedCalls} estimated` : "";
    lines.push(
      `  ${l.agent} · ${l.model || "model not recorded"}: ${l.inputTokens} in${cachedNote(l.cachedInputTokens)}, ${l.outputTokens} out, ${plural(l.calls, "call")}${estimated} · ${cost}`,
    );
  }
  return lines;
}
