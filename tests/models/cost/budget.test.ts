import { describe, expect, it } from "vitest";
import { budgetExceeded } from "../../../src/models/cost/budget.js";
import { priceRules, type PriceTable } from "../../../src/models/cost/prices.js";

const prices: PriceTable = priceRules({ cheap: { input: 1, output: 2 } }, "test");
const u = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({ inputTokens, cachedInputTokens, outputTokens, calls: 1, estimatedCalls: 0 });

describe("budgetExceeded", () => {
  it("is null without a budget or while there is room", () => {
    expect(budgetExceeded({ "coder:cheap": u(1e9, 1e9) }, {}, prices)).toBeNull();
    expect(budgetExceeded({ "coder:cheap": u(900, 99) }, { tokens: 1000 }, prices)).toBeNull();
  });

  it("counts input and output tokens of every agent against a token budget", () => {
    const usage = { "planner:cheap": u(400, 100), "coder:mystery": u(450, 50) };
    expect(budgetExceeded(usage, { tokens: 1000 }, prices)).toEqual({ kind: "token_budget", detail: "token budget of 1000 reached (1000 used)" });
  });

  it("counts what the priced models cost against a cost budget", () => {
    expect(budgetExceeded({ "coder:cheap": u(300_000, 50_000) }, { usd: 0.5 }, prices)).toBeNull();
    expect(budgetExceeded({ "coder:cheap": u(400_000, 50_000) }, { usd: 0.5 }, prices)).toEqual({
      kind: "cost_budget",
      detail: "cost budget of $0.5000 reached ($0.5000 used)",
    });
    expect(budgetExceeded({ "coder:mystery": u(1e9, 1e9) }, { usd: 0.5 }, prices)).toBeNull();
  });

  it("prices cached input at the cached-input price against a cost budget", () => {
    const cachedPrices = priceRules({ cheap: { input: 1, output: 2, cachedInput: 0.1 } }, "test");
    // 400k in at $1 plus 50k out at $2 is $0.50; with 300k of the input cached at $0.10 it is $0.23.
    expect(budgetExceeded({ "coder:cheap": u(400_000, 50_000) }, { usd: 0.5 }, cachedPrices)?.kind).toBe("cost_budget");
    expect(budgetExceeded({ "coder:cheap": u(400_000, 50_000, 300_000) }, { usd: 0.5 }, cachedPrices)).toBeNull();
  });
});
