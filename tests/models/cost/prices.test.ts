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
    expect(findPrice("gpt-4.1-mini-2025-04-14", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 0.4, output: 1.6, cachedInput: 0.1 });
    expect(findPrice("gpt-4.1-2025-04-14", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 2, output: 8, cachedInput: 0.5 });
    expect(findPrice("gpt-4o-mini", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
    expect(findPrice("deepseek-chat", DEFAULT_PRICE_TABLE)?.price).toEqual({ input: 0.27, output: 1.1, cachedInput: 0.07 });
  });
});

describe("costUsd", () => {
  it("is USD per million input and output tokens", () => {
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 0 }, { input: 0.4, output: 1.6 })).toBeCloseTo(0.4, 10);
    expect(costUsd({ inputTokens: 12_300, outputTokens: 1_100 }, { input: 2, output: 8 })).toBeCloseTo(0.0334, 10);
  });

  it("prices the cached part of the input at the cached-input price", () => {
    // 1M in, 800k of it cached: 200k × $2 + 800k × $0.5 + 100k out × $8 = $0.40 + $0.40 + $0.80.
    const tokens = { inputTokens: 1_000_000, cachedInputTokens: 800_000, outputTokens: 100_000 };
    expect(costUsd(tokens, { input: 2, output: 8, cachedInput: 0.5 })).toBeCloseTo(1.6, 10);
    // Without a cached-input price, cached input costs what any input does.
    expect(costUsd(tokens, { input: 2, output: 8 })).toBeCloseTo(2.8, 10);
    expect(costUsd({ inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0 }, { input: 2, output: 8, cachedInput: 0.5 })).toBeCloseTo(2, 10);
  });

  it("never counts more cached tokens than input tokens", () => {
    expect(costUsd({ inputTokens: 1_000, cachedInputTokens: 5_000, outputTokens: 0 }, { input: 2, output: 8, cachedInput: 1 })).toBeCloseTo(0.001, 10);
  });

  it("has a cached-input price below the input price for every built-in model", () => {
    for (const rule of DEFAULT_PRICE_TABLE) {
      expect(rule.price.cachedInput, rule.pattern).toBeDefined();
      expect(rule.price.cachedInput ?? Infinity, rule.pattern).toBeLessThan(rule.price.input);
    }
  });
});
