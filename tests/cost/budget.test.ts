import { describe, expect, it } from "vitest";
import { budgetExceeded, runBudgetExceeded } from "../../src/cost/budget.js";
import { parseBudgetFlags, raiseBudget, requirePricesForCostBudget } from "../../src/cost/cost-setup.js";
import { priceRules, type PriceTable } from "../../src/cost/prices.js";
import type { ModelProvider } from "../../src/models/chat-model.js";

const prices: PriceTable = priceRules({ cheap: { input: 1, output: 2 } }, "test");
const u = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, calls: 1, estimatedCalls: 0 });

describe("budgetExceeded", () => {
  it("is null without a budget or while there is room", () => {
    expect(budgetExceeded({ "coder:cheap": u(1e9, 1e9) }, {}, prices)).toBeNull();
    expect(budgetExceeded({ "coder:cheap": u(900, 99) }, { tokens: 1000 }, prices)).toBeNull();
  });

  it("counts input and output tokens of every agent against a token budget", () => {
    const usage = { "planner:cheap": u(400, 100), "coder:mystery": u(450, 50) };
    expect(budgetExceeded(usage, { tokens: 1000 }, prices)).toBe("token budget of 1000 reached (1000 used)");
  });

  it("counts what the priced models cost against a cost budget", () => {
    expect(budgetExceeded({ "coder:cheap": u(300_000, 50_000) }, { usd: 0.5 }, prices)).toBeNull();
    expect(budgetExceeded({ "coder:cheap": u(400_000, 50_000) }, { usd: 0.5 }, prices)).toBe("cost budget of $0.5000 reached ($0.5000 used)");
    expect(budgetExceeded({ "coder:mystery": u(1e9, 1e9) }, { usd: 0.5 }, prices)).toBeNull();
  });

  it("includes a sub-agent run in progress", () => {
    const run = { base: { "planner:cheap": u(500, 100) }, key: "coder:cheap", budget: { tokens: 1000 }, prices };
    expect(runBudgetExceeded(run, { inputTokens: 300, outputTokens: 50, modelCalls: 2 })).toBeNull();
    expect(runBudgetExceeded(run, { inputTokens: 350, outputTokens: 50, modelCalls: 3, estimatedCalls: 1 })).toBe("token budget of 1000 reached (1000 used)");
  });
});

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
