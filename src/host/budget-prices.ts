import { MODEL_ROLES } from "../platform/config/index.js";
import type { Budget } from "../models/cost/budget.js";
import { findPrice, type PriceTable } from "../models/cost/prices.js";
import type { ModelProvider } from "../models/chat-model.js";

/** The models a cost budget cannot be counted for (no price known for them); none without a cost budget. */
export function unpricedModels(budget: Budget, prices: PriceTable, models: Pick<ModelProvider, "describe">): string[] {
  if (budget.usd === undefined) return [];
  return [...new Set(MODEL_ROLES.map((role) => models.describe(role)))].filter((model) => !findPrice(model, prices));
}
