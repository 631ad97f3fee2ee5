import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  cachedTokens,
  commonPrefixLength,
  compareRequests,
  inputCost,
  joinParts,
  serializeRequest,
  summarizeShares,
  type RequestShare,
} from "../../bench/context/prefix-share.js";

const readTool = tool(() => "", { name: "read_file", description: "Read a file.", schema: z.object({ path: z.string() }) });
const head = [new SystemMessage("You are a coder."), new HumanMessage("Fix the bug.")];
const turn = [
  new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "read_file", args: { path: "a.ts" }, type: "tool_call" }] }),
  new ToolMessage({ tool_call_id: "c1", content: "export const a = 1;" }),
];

describe("serializing a request", () => {
  it("is the JSON of the tools and messages, with each part's end", () => {
    const joined = joinParts([
      { label: "tool definitions", items: ['{"a":1}', '{"b":2}'] },
      { label: "message 0 (system)", items: ['{"role":"system"}'] },
      { label: "message 1 (user)", items: ['{"role":"user"}'] },
    ]);
    expect(joined.text).toBe(JSON.stringify({ tools: [{ a: 1 }, { b: 2 }], messages: [{ role: "system" }, { role: "user" }] }));
    expect(joined.parts.map((p) => joined.text.slice(0, p.end))).toEqual([
      '{"tools":[{"a":1},{"b":2}]',
      '{"tools":[{"a":1},{"b":2}],"messages":[{"role":"system"}',
      '{"tools":[{"a":1},{"b":2}],"messages":[{"role":"system"},{"role":"user"}',
    ]);
  });

  it("carries the tool definitions in OpenAI's format, then the chat-completions messages", () => {
    const { text } = serializeRequest([readTool], [...head, ...turn]);
    const parsed = JSON.parse(text) as { tools: { type: string; function: { name: string } }[]; messages: { role: string }[] };
    expect(parsed.tools.map((t) => [t.type, t.function.name])).toEqual([["function", "read_file"]]);
    expect(parsed.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
  });
});

describe("shared prefixes", () => {
  it("counts the leading characters two strings share", () => {
    expect(commonPrefixLength("abcdef", "abcxyz")).toBe(3);
    expect(commonPrefixLength("abc", "abc")).toBe(3);
    expect(commonPrefixLength("", "abc")).toBe(0);
  });

  it("compares each request with the previous one of its own group; a group's first has none", () => {
    const first = serializeRequest([readTool], head);
    const second = serializeRequest([readTool], [...head, ...turn]);
    const changed = serializeRequest([readTool], [head[0] as SystemMessage, new HumanMessage("Fix another bug."), ...turn]);
    const shares = compareRequests([
      { group: "coder", request: first },
      { group: "planner", request: first },
      { group: "coder", request: second },
      { group: "coder", request: changed },
    ]);
    expect(shares.map((s) => s.prefix === null)).toEqual([true, true, false, false]);
    // Appending only: everything but the previous request's closing `]}` is repeated.
    expect(shares[2]).toMatchObject({ prefix: first.text.length - 2, appendOnly: true, divergesIn: "nothing (append only)" });
    expect(shares[3]).toMatchObject({ appendOnly: false, divergesIn: "message 1 (user)" });
  });

  it("summarizes over the compared requests only", () => {
    const shares: RequestShare[] = [
      { group: "g", chars: 100, prefix: null, divergesIn: null, appendOnly: false },
      { group: "g", chars: 100, prefix: 50, divergesIn: "message 1 (user)", appendOnly: false },
      { group: "g", chars: 300, prefix: 270, divergesIn: "nothing (append only)", appendOnly: true },
    ];
    const summary = summarizeShares(shares);
    expect(summary.compared).toBe(2);
    expect(summary.mean).toBeCloseTo((0.5 + 0.9) / 2);
    expect(summary.weighted).toBeCloseTo(320 / 400);
    expect([summary.min, summary.max]).toEqual([0.5, 0.9]);
  });
});

describe("cached input", () => {
  it("follows OpenAI's rule: at least 1,024 tokens, then in steps of 128", () => {
    expect(cachedTokens(1_000, 1_000)).toBe(0);
    expect(cachedTokens(2_000, 1_000)).toBe(0);
    expect(cachedTokens(2_000, 1_300)).toBe(1_280);
    expect(cachedTokens(1_100, 5_000)).toBe(1_024);
  });

  it("prices every request, first requests at full price", () => {
    // 8,000 characters = 2,000 tokens each; the second shares 6,000 characters = 1,500 tokens → 1,408 cached.
    const shares: RequestShare[] = [
      { group: "g", chars: 8_000, prefix: null, divergesIn: null, appendOnly: false },
      { group: "g", chars: 8_000, prefix: 6_000, divergesIn: "message 3 (tool)", appendOnly: false },
    ];
    const cost = inputCost(shares, { input: 2, cachedInput: 0.5 });
    expect(cost.tokens).toBe(4_000);
    expect(cost.cachedTokens).toBe(1_408);
    expect(cost.withoutCache).toBeCloseTo(4_000 * 2e-6);
    expect(cost.withCache).toBeCloseTo(2_592 * 2e-6 + 1_408 * 0.5e-6);
  });
});
