import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { measureCall } from "../../../src/models/cost/estimate.js";
import { compactTokens, formatUsd, runningTotal, usageReportLines } from "../../../src/models/cost/format.js";
import { priceRules, type PriceTable } from "../../../src/models/cost/prices.js";
import { addUsage, splitUsageKey, summarizeUsage, usageBaseOf, usageKey } from "../../../src/models/cost/usage.js";

const prices: PriceTable = priceRules({ cheap: { input: 1, output: 2 }, "pricey-*": { input: 10, output: 40 } }, "test");
const cachedPrices: PriceTable = priceRules({ cheap: { input: 2, output: 8 }, cached: { input: 2, output: 8, cachedInput: 0.5 } }, "test");
const u = (inputTokens: number, outputTokens: number, calls = 1, estimatedCalls = 0, cachedInputTokens = 0) => ({
  inputTokens,
  cachedInputTokens,
  outputTokens,
  calls,
  estimatedCalls,
});

describe("measureCall", () => {
  const prompt = [new SystemMessage("s".repeat(40)), new HumanMessage("h".repeat(80))];

  it("uses the provider's usage data when the reply has it", () => {
    const reply = new AIMessage({ content: "ok", usage_metadata: { input_tokens: 1234, output_tokens: 56, total_tokens: 1290 } });
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 1234, cachedInputTokens: 0, outputTokens: 56, estimated: false });
  });

  it("estimates chars/4 of the prompt and the reply (tool calls included) when it has none, and says so", () => {
    const reply = new AIMessage({ content: "x".repeat(10), tool_calls: [{ id: "c1", name: "read_file", args: { path: "a.ts" } }] });
    // prompt 120 chars → 30; reply 10 + "read_file" 9 + '{"path":"a.ts"}' 15 = 34 chars → 9
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 30, cachedInputTokens: 0, outputTokens: 9, estimated: true });
    expect(measureCall(prompt, reply, 100).inputTokens).toBe(130);
  });

  it("reads the cached input the provider reports (LangChain's cache_read), 0 when it reports none", () => {
    const usage_metadata = { input_tokens: 1234, output_tokens: 56, total_tokens: 1290, input_token_details: { cache_read: 1024 } };
    expect(measureCall(prompt, new AIMessage({ content: "ok", usage_metadata }))).toEqual({
      inputTokens: 1234,
      cachedInputTokens: 1024,
      outputTokens: 56,
      estimated: false,
    });
    const none = new AIMessage({ content: "ok", usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_token_details: {} } });
    expect(measureCall(prompt, none).cachedInputTokens).toBe(0);
  });

  it("treats a usage object of zeros (some local servers) as missing", () => {
    const reply = new AIMessage({ content: "abcd", usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } });
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 30, cachedInputTokens: 0, outputTokens: 1, estimated: true });
  });
});

describe("usage accounting", () => {
  it("keys usage by agent and model, and reads keys of older sessions", () => {
    expect(usageKey("coder", "gpt-4.1-mini")).toBe("coder:gpt-4.1-mini");
    expect(splitUsageKey("coder:qwen2.5-coder:7b")).toEqual({ agent: "coder", model: "qwen2.5-coder:7b" });
    expect(splitUsageKey("planner")).toEqual({ agent: "planner", model: "" });
  });

  it("adds usage per key, estimated calls included, and tolerates entries without them", () => {
    const legacy = { "coder:cheap": { inputTokens: 10, outputTokens: 1, calls: 1 } } as unknown as Parameters<typeof addUsage>[0];
    const sum = addUsage(legacy, { "coder:cheap": u(5, 5, 2, 1), "planner:cheap": u(1, 1) });
    expect(sum).toEqual({ "coder:cheap": u(15, 6, 3, 1), "planner:cheap": u(1, 1) });
  });

  it("reads an entry of an older checkpoint, without cached tokens, as none cached", () => {
    const legacy = { "coder:cheap": { inputTokens: 1_000_000, outputTokens: 0, calls: 1, estimatedCalls: 0 } } as unknown as Parameters<typeof addUsage>[0];
    expect(addUsage(legacy, { "coder:cheap": u(10, 0, 1, 0, 4) })["coder:cheap"]).toEqual(u(1_000_010, 0, 2, 0, 4));
    const s = summarizeUsage(legacy, cachedPrices);
    expect(s).toMatchObject({ inputTokens: 1_000_000, cachedInputTokens: 0, costUsd: 2 });
    expect(s.lines[0]?.cachedInputTokens).toBe(0);
  });

  it("sums cached input per key and in total, and prices it at the cached-input price", () => {
    const s = summarizeUsage({ "planner:cached": u(100_000, 10_000, 2, 0, 80_000), "coder:cached": u(1_000_000, 100_000, 5, 0, 900_000) }, cachedPrices);
    expect(s).toMatchObject({ inputTokens: 1_100_000, cachedInputTokens: 980_000, outputTokens: 110_000, calls: 7 });
    // coder: 100k × $2 + 900k × $0.5 + 100k × $8 = $1.45; planner: 20k × $2 + 80k × $0.5 + 10k × $8 = $0.16.
    expect(s.lines.map((l) => [l.agent, l.cachedInputTokens, l.costUsd])).toEqual([
      ["planner", 80_000, 0.16],
      ["coder", 900_000, 1.45],
    ]);
    expect(s.costUsd).toBe(1.61);
    expect(usageBaseOf({ "coder:cached": u(1_000_000, 100_000, 5, 0, 900_000) }, cachedPrices)).toMatchObject({
      cachedInputTokens: 900_000,
      knownCostUsd: 1.45,
    });
  });

  it("prices each agent and model and totals them", () => {
    const s = summarizeUsage({ "planner:pricey-2": u(100_000, 10_000), "coder:cheap": u(1_000_000, 500_000, 7, 2) }, prices);
    expect(s).toMatchObject({ inputTokens: 1_100_000, outputTokens: 510_000, calls: 8, estimatedCalls: 2, costUsd: 3.4, unpricedModels: [] });
    expect(s.lines.map((l) => [l.agent, l.model, l.costUsd])).toEqual([
      ["planner", "pricey-2", 1.4],
      ["coder", "cheap", 2],
    ]);
  });

  it("says the cost is unknown (not 0) when a model has no price, keeping what the priced ones cost", () => {
    const s = summarizeUsage({ "planner:cheap": u(1_000_000, 0), "coder:mystery": u(10, 10), reviewer: u(5, 5) }, prices);
    expect(s.costUsd).toBeNull();
    expect(s.knownCostUsd).toBe(1);
    expect(s.unpricedModels).toEqual(["mystery", "reviewer (model not recorded)"]);
    expect(summarizeUsage({}, prices)).toMatchObject({ costUsd: 0, calls: 0 });
  });
});

describe("formatting", () => {
  it("keeps numbers short on the progress line", () => {
    expect([compactTokens(950), compactTokens(12_345), compactTokens(1_100), compactTokens(2_500_000)]).toEqual(["950", "12.3k", "1.1k", "2.5M"]);
    expect([formatUsd(0), formatUsd(0.0042), formatUsd(12.5)]).toEqual(["$0", "$0.0042", "$12.50"]);
    expect(runningTotal({ inputTokens: 12_300, outputTokens: 1_100, calls: 9, costUsd: 0.0042, estimated: false })).toBe(
      "tokens 12.3k in / 1.1k out · $0.0042",
    );
    expect(runningTotal({ inputTokens: 10, outputTokens: 1, calls: 1, costUsd: null, estimated: true })).toBe(
      "tokens 10 in / 1 out · cost unknown (estimated)",
    );
    expect(runningTotal({ inputTokens: 12_300, cachedInputTokens: 9_000, outputTokens: 1_100, calls: 9, costUsd: 0.0042, estimated: false })).toBe(
      "tokens 12.3k in (9.0k cached) / 1.1k out · $0.0042",
    );
    expect(runningTotal({ inputTokens: 10, cachedInputTokens: 0, outputTokens: 1, calls: 1, costUsd: null, estimated: false })).toBe(
      "tokens 10 in / 1 out · cost unknown",
    );
  });

  it("reports totals, cost, estimates and one line per agent and model", () => {
    const lines = usageReportLines(summarizeUsage({ "planner:cheap": u(1000, 100), "coder:cheap": u(4000, 400, 4, 1) }, prices));
    expect(lines).toEqual([
      "Tokens: 5000 in, 500 out, 5 model calls (1 estimated at 4 characters per token: no usage data)",
      "Cost: $0.0060 (estimated)",
      "  planner · cheap: 1000 in, 100 out, 1 call · $0.0012",
      "  coder · cheap: 4000 in, 400 out, 4 calls, 1 estimated · $0.0048",
    ]);
    const unknown = usageReportLines(summarizeUsage({ "coder:mystery": u(10, 1) }, prices));
    expect(unknown[1]).toBe('Cost: unknown — no price for mystery (set "prices" in mini-cursor.json or MINI_CURSOR_PRICES)');
    expect(unknown[2]).toBe("  coder · mystery: 10 in, 1 out, 1 call · cost unknown");
  });

  it("says the cached input once the endpoint reported any, on the totals and on every agent line", () => {
    const lines = usageReportLines(summarizeUsage({ "planner:cheap": u(20_000, 1_000, 2), "coder:cached": u(100_000, 2_000, 10, 0, 90_000) }, cachedPrices));
    expect(lines).toEqual([
      "Tokens: 120000 in (90000 cached), 3000 out, 12 model calls",
      "Cost: $0.1290",
      "  planner · cheap: 20000 in (0 cached), 1000 out, 2 calls · $0.0480",
      "  coder · cached: 100000 in (90000 cached), 2000 out, 10 calls · $0.0810",
    ]);
  });
});
