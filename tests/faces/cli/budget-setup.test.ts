import { describe, expect, it } from "vitest";
import { parseBudgetFlags, raiseBudget, requirePricesForCostBudget } from "../../../src/faces/cli/budget-setup.js";
import { priceRules, type PriceTable } from "../../../src/models/cost/prices.js";
import type { ModelProvider } from "../../../src/models/chat-model.js";

const prices: PriceTable = priceRules({ cheap: { input: 1, output: 2 } }, "test");

describe("budget flags", () => {
  it("parses --budget-tokens and --budget-usd", () => {
    expect(parseBudgetFlags({})).toEqual({});
    expect(parseBudgetFlags({ "budget-tokens": "5000", "budget-usd": "0.25" })).toEqual({ tokens: 5000, usd: 0.25 });
    expect(parseBudgetFlags({ "budget-usd": ".5" })).toEqual({ usd: 0.5 });
    expect(() => parseBudgetFlags({ "budget-tokens": "lots" })).toThrow(/--budget-tokens must be a positive whole number/);
    expect(() => parseBudgetFlags({ "budget-usd": "0" })).toThrow(/--budget-usd must be a positive amount/);
    expect(() => parseBudgetFlags({ "budget-usd": "$1" })).toThrow(/--budget-usd must be a positive amount/);
  });

  it("lets resume raise a budget or add one, never lower it", () => {
    expect(raiseBudget({ tokens: 1000 }, { tokens: 5000 })).toEqual({ tokens: 5000 });
    expect(raiseBudget({ tokens: 1000 }, { usd: 2 })).toEqual({ tokens: 1000, usd: 2 });
    expect(raiseBudget({}, {})).toEqual({});
    expect(() => raiseBudget({ tokens: 1000 }, { tokens: 999 })).toThrow(/can only raise the session's token budget of 1000/);
    expect(() => raiseBudget({ usd: 1 }, { usd: 0.5 })).toThrow(/can only raise the session's cost budget of 1/);
  });

  it("refuses a cost budget when a model in use has no price", () => {
    const models = (names: Record<string, string>): ModelProvider => ({
      forRole: () => {
        throw new Error("unused");
      },
      describe: (role) => names[role] ?? "cheap",
    });
    expect(() => requirePricesForCostBudget({ usd: 1 }, prices, models({}))).not.toThrow();
    expect(() => requirePricesForCostBudget({ tokens: 1 }, prices, models({ coder: "mystery" }))).not.toThrow();
    expect(() => requirePricesForCostBudget({ usd: 1 }, prices, models({ coder: "mystery" }))).toThrow(/--budget-usd needs a price for "mystery"/);
  });
});
