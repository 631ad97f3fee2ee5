import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  type BaseMessage,
} from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { fitToBudget } from "../../../src/agents/middleware/context-budget.js";
import { LOW_WATER } from "../../../src/agents/middleware/context-compaction.js";
import { countTokens } from "../../../src/agents/middleware/context-budget.js";

/**
 * Issue 46: between two compactions every request of a run repeats the previous one and appends to it, so a
 * provider's prompt cache serves all but the new turn; a compaction goes down to the low-water mark in one batch.
 */
const BUDGET = 32_000;
const OVERHEAD = 3_000;

/** A run's transcript: reads of 6-10 KB and commands printing 15-20 KB, some turns with several calls. */
function longRun(turns: number): BaseMessage[] {
  const messages: BaseMessage[] = [
    new SystemMessage(`You are the coder.\n${"rule ".repeat(400)}`),
    new HumanMessage(`Your step: make the tests pass.\n${"context ".repeat(300)}`),
  ];
  for (let t = 0; t < turns; t++) {
    const count = t % 7 === 3 ? 3 : 1;
    const calls = Array.from({ length: count }, (_, j) => {
      const id = `c${t}_${j}`;
      return t % 3 === 2
        ? { id, name: "execute_command", args: { command: `node check.js ${t} ${j}` }, type: "tool_call" as const }
        : { id, name: "read_file", args: { path: `src/m${t}_${j}.ts` }, type: "tool_call" as const };
    });
    messages.push(new AIMessage({ content: t % 5 === 0 ? `Turn ${t}: next I look at module ${t}.` : "", tool_calls: calls }));
    for (const call of calls) {
      const size = call.name === "execute_command" ? 15_000 + ((t * 997) % 5_000) : 6_000 + ((t * 1_301) % 4_000);
      const body = call.name === "execute_command" ? `Exit code: ${t % 4 === 0 ? 1 : 0}\n` : "";
      messages.push(new ToolMessage({ tool_call_id: call.id, name: call.name, content: `${body}${`${call.id} output `.repeat(size / 16)}`.slice(0, size) }));
    }
  }
  return messages;
}

/** The request as text, message by message, the way a provider compares prompts (role, content, calls). */
function wire(messages: readonly BaseMessage[]): string[] {
  return messages.map((m) =>
    JSON.stringify({
      type: m.getType(),
      content: m.content,
      calls: AIMessage.isInstance(m) ? m.tool_calls : undefined,
      id: ToolMessage.isInstance(m) ? m.tool_call_id : undefined,
    }),
  );
}

function sharedChars(previous: string[], next: string[]): number {
  let shared = 0;
  for (let i = 0; i < previous.length && i < next.length; i++) {
    const a = previous[i] ?? "";
    const b = next[i] ?? "";
    if (a === b) {
      shared += a.length;
      continue;
    }
    let j = 0;
    while (j < a.length && a[j] === b[j]) j += 1;
    return shared + j;
  }
  return shared;
}

/** The prompts of a run that grows one turn at a time: the request before each turn, then the last one. */
function requests(transcript: BaseMessage[]): { wire: string[]; tokens: number; summarized: number }[] {
  const out: { wire: string[]; tokens: number; summarized: number }[] = [];
  transcript.forEach((m, i) => {
    if (AIMessage.isInstance(m)) {
      const view = fitToBudget(transcript.slice(0, i), BUDGET, OVERHEAD);
      out.push({ wire: wire(view.messages), tokens: view.tokens, summarized: view.summarized });
    }
  });
  const last = fitToBudget(transcript, BUDGET, OVERHEAD);
  out.push({ wire: wire(last.messages), tokens: last.tokens, summarized: last.summarized });
  return out;
}

describe("cache-aware compaction", () => {
  const transcript = longRun(45);
  const prompts = requests(transcript);

  it("keeps every prompt within the budget while the run outgrows it several times over", () => {
    expect(countTokens(transcript) + OVERHEAD).toBeGreaterThan(4 * BUDGET);
    for (const p of prompts) expect(p.tokens).toBeLessThanOrEqual(BUDGET);
  });

  it("makes each request extend the previous one except at a few compactions, each down to the low-water mark", () => {
    const compactions: number[] = [];
    prompts.forEach((p, i) => {
      const previous = prompts[i - 1];
      if (!previous) return;
      const extends_ = previous.wire.every((w, j) => p.wire[j] === w);
      if (!extends_) compactions.push(i);
    });
    // 45 turns of 2-5k tokens each against a 29k limit: a compaction every few turns, never one per call.
    expect(compactions.length).toBeGreaterThan(2);
    expect(compactions.length).toBeLessThan(prompts.length / 3);
    for (const i of compactions) {
      // Down to half the budget, plus the newest turn, which is never cleared.
      const newest = countTokens(transcript.filter((m) => ToolMessage.isInstance(m) && m.tool_call_id.startsWith(`c${i - 1}_`)));
      expect(prompts[i]?.tokens ?? Infinity).toBeLessThanOrEqual(Math.floor((BUDGET - OVERHEAD) * LOW_WATER) + OVERHEAD + newest + 100);
    }
  });

  it("repeats at least 75% of the previous request on average (the old per-call clearing repeated under half)", () => {
    const shares = prompts.slice(1).map((p, i) => sharedChars(prompts[i]?.wire ?? [], p.wire) / p.wire.join("").length);
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    expect(mean).toBeGreaterThanOrEqual(0.75);
  });

  it("folds cleared turns into one summary once placeholders pile up, and the summary only changes at a compaction", () => {
    const long = requests(longRun(120));
    for (const p of long) expect(p.tokens).toBeLessThanOrEqual(BUDGET);
    expect(long.at(-1)?.summarized).toBeGreaterThan(0);
    const summaries = new Set(long.map((p) => p.wire.find((w) => w.includes("[Summary of your first"))).filter(Boolean));
    const changes = long.filter((p, i) => i > 0 && p.summarized !== long[i - 1]?.summarized).length;
    expect(summaries.size).toBe(changes);
  });

  it("makes the same prompt from a transcript read back from a checkpoint (no state of its own, no per-process cache)", () => {
    const stored = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages(transcript));
    for (const cut of [60, 90, transcript.length]) {
      expect(wire(fitToBudget(stored.slice(0, cut), BUDGET, OVERHEAD).messages)).toEqual(
        wire(fitToBudget(transcript.slice(0, cut), BUDGET, OVERHEAD).messages),
      );
    }
  });

  it("keeps a reply's id, usage and unparsable calls when it clears that reply's arguments", () => {
    const messages: BaseMessage[] = [new SystemMessage("You are the coder."), new HumanMessage("Your step: write the data.")];
    for (let t = 0; t < 12; t++) {
      messages.push(
        new AIMessage({
          id: `reply-${t}`,
          content: "",
          tool_calls: [{ id: `w${t}`, name: "write_file", args: { path: `gen${t}.txt`, content: String(t % 10).repeat(15_000) }, type: "tool_call" }],
          invalid_tool_calls: [{ id: `bad${t}`, name: "write_file", args: "{not json", error: "bad JSON", type: "invalid_tool_call" }],
          usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
        }),
        new ToolMessage({ tool_call_id: `w${t}`, name: "write_file", content: `Created gen${t}.txt` }),
      );
    }
    const view = fitToBudget(messages, 20_000, 1_000);
    const cleared = view.messages.find((m): m is AIMessage => AIMessage.isInstance(m) && Object.keys(m.tool_calls?.[0]?.args ?? {}).length === 0);
    expect(cleared?.id).toMatch(/^reply-\d+$/);
    expect(cleared?.usage_metadata?.input_tokens).toBe(100);
    expect(cleared?.invalid_tool_calls?.map((c) => c.args)).toEqual(["{not json"]);
  });

  it("keeps every call with its result, clearing the arguments of cleared calls only when results are not enough", () => {
    const big = { id: "w", name: "write_file", args: { path: "gen.txt", content: "g".repeat(15_000) }, type: "tool_call" as const };
    const messages: BaseMessage[] = [
      new SystemMessage("You are the coder."),
      new HumanMessage("Your step: write the data."),
      ...Array.from({ length: 12 }, (_, t) => [
        new AIMessage({ content: "", tool_calls: [{ ...big, id: `w${t}`, args: { path: `gen${t}.txt`, content: String(t % 10).repeat(15_000) } }] }),
        new ToolMessage({ tool_call_id: `w${t}`, name: "write_file", content: `Created gen${t}.txt`, artifact: { ok: true, filesChanged: [`gen${t}.txt`] } }),
      ]).flat(),
    ];
    const view = fitToBudget(messages, 20_000, 1_000);
    expect(view.tokens).toBeLessThanOrEqual(20_000);
    const calls = new Set(view.messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : [])));
    expect(view.messages.every((m) => !ToolMessage.isInstance(m) || calls.has(m.tool_call_id))).toBe(true);
    const args = view.messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.args) : []));
    expect(args.at(-1)?.content).toBe("1".repeat(15_000));
    expect(args.some((a) => Object.keys(a).length === 0)).toBe(true);
  });
});
