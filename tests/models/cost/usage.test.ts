import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { measureCall } from "../../../src/models/cost/estimate.js";
import { compactTokens, formatUsd, runningTotal, usageReportLines } from "../../../src/models/cost/format.js";
import { priceRules, type PriceTable } from "../../../src/models/cost/prices.js";
import { addUsage, splitUsageKey, summarizeUsage, usageKey } from "../../../src/models/cost/usage.js";

const prices: PriceTable = priceRules({ cheap: { input: 1, output: 2 }, "pricey-*": { input: 10, output: 40 } }, "test");
const u = (inputTokens: number, outputTokens: number, calls = 1, estimatedCalls = 0) => ({ inputTokens, outputTokens, calls, estimatedCalls });

describe("measureCall", () => {
  const prompt = [new SystemMessage("s".repeat(40)), new HumanMessage("h".repeat(80))];

  it("uses the provider's usage data when the reply has it", () => {
    const reply = new AIMessage({ content: "ok", usage_metadata: { input_tokens: 1234, output_tokens: 56, total_tokens: 1290 } });
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 1234, outputTokens: 56, estimated: false });
  });

  it("estimates chars/4 of the prompt and the reply (tool calls included) when it has none, and says so", () => {
    const reply = new AIMessage({ content: "x".repeat(10), tool_calls: [{ id: "c1", name: "read_file", args: { path: "a.ts" } }] });
    // prompt 120 chars → 30; reply 10 + "read_file" 9 + '{"path":"a.ts"}' 15 = 34 chars → 9
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 30, outputTokens: 9, estimated: true });
    expect(measureCall(prompt, reply, 100).inputTokens).toBe(130);
  });

  it("treats a usage object of zeros (some local servers) as missing", () => {
    const reply = new AIMessage({ content: "abcd", usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } });
    expect(measureCall(prompt, reply)).toEqual({ inputTokens: 30, outputTokens: 1, estimated: true });
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
});
