import type { Budget } from "../../models/cost/budget.js";
import type { PriceTable } from "../../models/cost/prices.js";
import { unpricedModels } from "../../host/budget-prices.js";
import type { ModelProvider } from "../../models/chat-model.js";
import { positiveInt } from "./args.js";
import { UsageError } from "./exit-codes.js";

/** `--budget-tokens N --budget-usd X`, for `run` and `resume`. */
export const BUDGET_OPTIONS = {
  "budget-tokens": { type: "string" },
  "budget-usd": { type: "string" },
} as const;

export interface BudgetFlags {
  "budget-tokens"?: string;
  "budget-usd"?: string;
}

function positiveUsd(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value) || Number(value) <= 0) {
    throw new UsageError(`--budget-usd must be a positive amount in USD (e.g. 0.50), got "${value}"`);
  }
  return Number(value);
}

export function parseBudgetFlags(values: BudgetFlags): Budget {
  const budget: Budget = {};
  const tokens = positiveInt(values["budget-tokens"], "--budget-tokens");
  const usd = positiveUsd(values["budget-usd"]);
  if (tokens !== undefined) budget.tokens = tokens;
  if (usd !== undefined) budget.usd = usd;
  return budget;
}

/** `resume` may raise a session's budget (or set one it did not have), never lower it. */
export function raiseBudget(stored: Budget, flags: Budget): Budget {
  if (flags.tokens !== undefined && stored.tokens !== undefined && flags.tokens < stored.tokens) {
    throw new UsageError(`--budget-tokens can only raise the session's token budget of ${stored.tokens}`);
  }
  if (flags.usd !== undefined && stored.usd !== undefined && flags.usd < stored.usd) {
    throw new UsageError(`--budget-usd can only raise the session's cost budget of ${stored.usd}`);
  }
  return { ...stored, ...flags };
}

/** A cost budget cannot be kept without a price for every model the session uses: say so before starting. */
export function requirePricesForCostBudget(budget: Budget, prices: PriceTable, models: Pick<ModelProvider, "describe">): void {
  const unpriced = unpricedModels(budget, prices, models);
  if (unpriced.length > 0) {
    throw new UsageError(
      `--budget-usd needs a price for ${unpriced.map((m) => `"${m}"`).join(", ")}: add it to "prices" in mini-cursor.json or MINI_CURSOR_PRICES (USD per 1M tokens, see README)`,
    );
  }
}
