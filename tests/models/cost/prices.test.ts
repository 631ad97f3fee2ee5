import { describe, expect, it } from "vitest";
import { BUILT_IN_SOURCE, DEFAULT_PRICE_TABLE, costUsd, findPrice, globMatches, priceRules, type PriceTable } from "../../../src/models/cost/prices.js";

describe("globMatches", () => {
  it("matches whole names, * as anything, case-insensitively", () => {
    expect(globMatches("deepseek-*", "deepseek-chat")).toBe(true);
    expect(globMatches("deepseek-*", "DeepSeek-Reasoner")).toBe(true);
    expect(globMatches("deepseek-*", "my-deepseek-chat")).toBe(false);
    expect(globMatches("gpt-4.1-mini", "gpt-4.1-mini")).toBe(true);
    expect(globMatches("gpt-4.1-mini", "gpt-4.1-mini-2025-04-14")).toBe(false);
    expect(globMatches("*coder*", "qwen2.5-coder:7b")).toBe(true);
  });

  it("treats regex characters in a pattern literally", () => {
    expect(globMatches("gpt-4.1", "gpt-4x1")).toBe(false);
    expect(globMatches("a+b(c)", "a+b(c)")).toBe(true);
  });
});

describe("findPrice", () => {
  const table: PriceTable = priceRules(
    {
      "team-*": { input: 1, output: 1 },
      "team-large-*": { input: 5, output: 5 },
      "team-large-v2": { input: 9, output: 9 },
    },
    "test",
  );

  it("prefers an exact name, then the glob with the most literal characters", () => {
    expect(findPrice("team-large-v2", table)?.price.input).toBe(9);
    expect(findPrice("team-large-v3", table)?.price.input).toBe(5);
    expect(findPrice("team-small", table)?.price.input).toBe(1);
  });

  it("knows no price for an unknown model (its cost is unknown, not 0)", () => {
    expect(findPrice("mystery-model", table)).toBeUndefined();
    expect(findPrice("mystery-model", DEFAULT_PRICE_TABLE)).toBeUndefined();
    expect(findPrice("", DEFAULT_PRICE_TABLE)).toBeUndefined();
  });

  it("lets an earlier source win over a more specific rule of a later one", () => {
    const layered: PriceTable = [...priceRules({ "gpt-*": { input: 0, output: 0 } }, "mine"), ...DEFAULT_PRICE_TABLE];
    expect(findPrice("gpt-4.1-mini", layered)).toMatchObject({ source: "mine", price: { input: 0, output: 0 } });
  });

  it("prices common OpenAI and DeepSeek models out of the box, dated snapshots included", () => {
    expect(findPrice("gpt-4.1-mini", DEFAULT_PRICE_TABLE)).toMatchObject({ source: BUILT_IN_SOURCE, price: { input: 0.4, output: 1.6 } });
    expect(findPrice("gpt-4.1-mini-2025-04-14", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 0.4, output: 1.6 });
    expect(findPrice("gpt-4.1-2025-04-14", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 2, output: 8 });
    expect(findPrice("gpt-4o-mini", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 0.15, output: 0.6 });
    expect(findPrice("deepseek-chat", DEFAULT_PRICE_TABLE)).toBeDefined();
  });
});

describe("costUsd", () => {
  it("is USD per million input and output tokens", () => {
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 0 }, { input: 0.4, output: 1.6 })).toBeCloseTo(0.4, 10);
    expect(costUsd({ inputTokens: 12_300, outputTokens: 1_100 }, { input: 2, output: 8 })).toBeCloseTo(0.0334, 10);
  });
});
