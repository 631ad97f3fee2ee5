import { z } from "zod";
import type { StopReason, UsageByKey } from "../../core/index.js";
import { formatUsd } from "./format.js";
import type { PriceTable } from "./prices.js";
import { summarizeUsage } from "./usage.js";

/** A session's spending limits; absent fields are unlimited. Stored with the session's run options. */
export const budgetSchema = z.object({
  /** Input plus output tokens over the whole session (over the current turn, with `spentBefore`). */
  tokens: z.number().int().positive().optional(),
  usd: z.number().positive().optional(),
  /**
   * What the session had spent before its current turn (a follow-up, `resume --message`): budgets count per turn,
   * so this is subtracted from the session's totals before they are compared.
   */
  spentBefore: z.object({ tokens: z.number().nonnegative(), usd: z.number().nonnegative() }).optional(),
});
export type Budget = z.infer<typeof budgetSchema>;

/**
 * The session's budget travels with each run, in its configurable settings (`budget`), like the workspace: the CLI
 * sets it for every invocation (a resume may raise it), Studio and API runs may set it. Absent or malformed: none.
 */
export function budgetOf(configurable: Readonly<Record<string, unknown>> | undefined): Budget {
  const parsed = budgetSchema.safeParse(configurable?.budget);
  return parsed.success ? parsed.data : {};
}

export const TOKEN_BUDGET = "token budget";
export const COST_BUDGET = "cost budget";

/**
 * Why the budget is used up, or null while there is room. A token budget counts input and output tokens of every
 * call (estimates included); a cost budget counts what the priced models cost (models without a price add nothing,
 * so a cost budget needs prices for the models in use: the CLI checks that before a session starts).
 */
export function budgetExceeded(usage: UsageByKey, budget: Budget, prices: PriceTable): StopReason | null {
  if (budget.tokens === undefined && budget.usd === undefined) return null;
  const summary = summarizeUsage(usage, prices);
  return budgetExceededBy({ tokens: summary.inputTokens + summary.outputTokens, knownCostUsd: summary.knownCostUsd }, budget);
}

/** The same check on totals already summed: tokens of every call, and what the priced calls cost. */
export function budgetExceededBy(spent: { tokens: number; knownCostUsd: number }, budget: Budget): StopReason | null {
  const before = budget.spentBefore;
  const tokens = spent.tokens - (before?.tokens ?? 0);
  const usd = Math.max(0, spent.knownCostUsd - (before?.usd ?? 0));
  const scope = before ? " this turn" : "";
  if (budget.tokens !== undefined && tokens >= budget.tokens)
    return { kind: "token_budget", detail: `${TOKEN_BUDGET} of ${budget.tokens} reached (${tokens} used${scope})` };
  if (budget.usd !== undefined && usd >= budget.usd) {
    return { kind: "cost_budget", detail: `${COST_BUDGET} of ${formatUsd(budget.usd)} reached (${formatUsd(usd)} used${scope})` };
  }
  return null;
}
