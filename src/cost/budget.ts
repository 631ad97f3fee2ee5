import { z } from "zod";
import type { UsageByKey } from "../graph/schemas.js";
import { formatUsd } from "./format.js";
import type { PriceTable } from "./prices.js";
import { addUsage, summarizeUsage } from "./usage.js";

/** A session's spending limits; absent fields are unlimited. Stored with the session's run options. */
export const budgetSchema = z.object({
  /** Input plus output tokens over the whole session. */
  tokens: z.number().int().positive().optional(),
  usd: z.number().positive().optional(),
});
export type Budget = z.infer<typeof budgetSchema>;

export const TOKEN_BUDGET = "token budget";
export const COST_BUDGET = "cost budget";

/**
 * Why the budget is used up, or null while there is room. A token budget counts input and output tokens of every
 * call (estimates included); a cost budget counts what the priced models cost (models without a price add nothing,
 * so a cost budget needs prices for the models in use: the CLI checks that before a session starts).
 */
export function budgetExceeded(usage: UsageByKey, budget: Budget, prices: PriceTable): string | null {
  if (budget.tokens === undefined && budget.usd === undefined) return null;
  const summary = summarizeUsage(usage, prices);
  const tokens = summary.inputTokens + summary.outputTokens;
  if (budget.tokens !== undefined && tokens >= budget.tokens) return `${TOKEN_BUDGET} of ${budget.tokens} reached (${tokens} used)`;
  if (budget.usd !== undefined && summary.knownCostUsd >= budget.usd) {
    return `${COST_BUDGET} of ${formatUsd(budget.usd)} reached (${formatUsd(summary.knownCostUsd)} used)`;
  }
  return null;
}

/** What a sub-agent run needs to stop itself mid-way: the session's usage before the run and the key of its calls. */
export interface RunBudget {
  /** Session usage before this run started. */
  base: UsageByKey;
  /** `agent:model` of this run's calls (src/cost/usage.ts usageKey). */
  key: string;
  budget: Budget;
  prices: PriceTable;
}

/** budgetExceeded for the session including the run so far (`run` is the loop state's counters). */
export function runBudgetExceeded(
  run: RunBudget,
  used: { inputTokens: number; outputTokens: number; modelCalls: number; estimatedCalls?: number },
): string | null {
  const usage = addUsage(run.base, {
    [run.key]: { inputTokens: used.inputTokens, outputTokens: used.outputTokens, calls: used.modelCalls, estimatedCalls: used.estimatedCalls ?? 0 },
  });
  return budgetExceeded(usage, run.budget, run.prices);
}
