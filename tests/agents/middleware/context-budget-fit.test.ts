import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { countTokensApproximately } from "langchain";
import { describe, expect, it } from "vitest";
import { fitToBudget } from "../../../src/agents/middleware/context-budget.js";
import { countTokens } from "../../../src/agents/middleware/context-budget.js";

function transcript(turns: number, outputChars: number): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage("You are the coder."), new HumanMessage("Your step: fix the tests.")];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    const call =
      i % 2 === 0 ? { name: "read_file", args: { path: `src/file${i}.ts` } } : { name: "execute_command", args: { command: `npm test -- case${i}` } };
    messages.push(new AIMessage({ content: i === 1 ? "Decided: use vitest, not jest." : "", tool_calls: [{ ...call, id, type: "tool_call" }] }));
    const body = call.name === "execute_command" ? `Exit code: ${i % 3 === 0 ? 1 : 0}\n${"x".repeat(outputChars)}` : "y".repeat(outputChars);
    messages.push(new ToolMessage({ tool_call_id: id, name: call.name, content: body }));
  }
  return messages;
}

function pairsIntact(messages: BaseMessage[]): boolean {
  const calls = new Set(messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : [])));
  return messages.every((m) => !ToolMessage.isInstance(m) || calls.has(m.tool_call_id));
}

describe("fitToBudget", () => {
  it("leaves a small transcript alone", () => {
    const messages = transcript(3, 200);
    const view = fitToBudget(messages, 10_000, 500);
    expect(view.messages).toEqual(messages);
    expect(view.cleared).toBe(false);
  });

  it("clears older tool output first, keeping the newest results and every call/result pair", () => {
    const messages = transcript(12, 4_000);
    const before = countTokens(messages);
    const view = fitToBudget(messages, 9_000, 500);
    expect(view.cleared).toBe(true);
    expect(view.tokens).toBeLessThanOrEqual(9_000);
    expect(countTokens(messages)).toBe(before); // the stored transcript is untouched
    const results = view.messages.filter((m) => ToolMessage.isInstance(m));
    expect(String(results.at(-1)?.content)).toMatch(/^Exit code/);
    expect(String(results[0]?.content)).toMatch(/older tool output cleared/);
    expect(pairsIntact(view.messages)).toBe(true);
  });

  it("folds the oldest turns into a summary of files, commands and errors when clearing is not enough", () => {
    const messages = transcript(40, 600);
    const view = fitToBudget(messages, 2_500, 300);
    expect(view.tokens).toBeLessThanOrEqual(2_500);
    expect(view.summarized).toBeGreaterThan(0);
    const summary = String(view.messages[2]?.content);
    expect(summary).toMatch(/^\[Summary of your first \d+ turns/);
    expect(summary).toContain("read_file src/file0.ts");
    expect(summary).toMatch(/`npm test -- case3` → exit 1/);
    expect(summary).toMatch(/Errors seen: /);
    expect(summary).toContain("Your notes and decisions: Decided: use vitest, not jest.");
    expect(view.messages[0]).toBe(messages[0]);
    expect(view.messages[1]).toBe(messages[1]);
    expect(pairsIntact(view.messages)).toBe(true);
  });
});

describe("fitToBudget with a 1 MB argument or reply", () => {
  const data = Array.from({ length: 20_000 }, (_, i) => `row ${i}: ${"0123456789abcdef".repeat(3)}\n`)
    .join("")
    .slice(0, 1_000_000);
  const head = (): BaseMessage[] => [new SystemMessage("You are the coder."), new HumanMessage("Your step: write the data.")];

  it("counts tokens exactly as LangChain's countTokensApproximately, the first time and from its cache", () => {
    const messages = [
      ...transcript(6, 300),
      new AIMessage({ content: [{ type: "text", text: "parts" }], tool_calls: [] }),
      new AIMessage({ content: "x", tool_calls: [{ id: "w", name: "write_file", args: { path: "a", content: 'é\n"q"' }, type: "tool_call" }] }),
    ];
    expect(countTokens(messages)).toBe(countTokensApproximately(messages));
    expect(countTokens(messages)).toBe(countTokensApproximately(messages));
    expect(countTokens(messages.slice(3))).toBe(countTokensApproximately(messages.slice(3)));
  });

  it("elides a 1 MB write_file argument of the newest turn, so the very next prompt fits, with a note saying what was written", () => {
    const messages = [
      ...head(),
      new AIMessage({ content: "", tool_calls: [{ id: "w1", name: "write_file", args: { path: "big.txt", content: data }, type: "tool_call" }] }),
      new ToolMessage({
        tool_call_id: "w1",
        name: "write_file",
        content: 'Created "big.txt" (1000000 bytes, 20000 lines).',
        artifact: { ok: true, filesChanged: ["big.txt"] },
      }),
    ];
    const view = fitToBudget(messages, 32_000, 3_000);
    expect(view.tokens).toBeLessThanOrEqual(32_000);
    expect(countTokens(view.messages) + 3_000).toBe(view.tokens);
    const call = (view.messages[2] as AIMessage).tool_calls?.[0];
    expect(call?.args.content).toMatch(/^\[write_file big.txt: 1\.0 MB written;/);
    expect(pairsIntact(view.messages)).toBe(true);
    expect((messages[2] as AIMessage).tool_calls?.[0]?.args.content).toBe(data);
  });

  it("elides a 1 MB text reply of an earlier turn, keeping its head", () => {
    const messages = [
      ...head(),
      new AIMessage({ content: `Plan: ${data}`, tool_calls: [{ id: "l1", name: "list_directory", args: { path: "." }, type: "tool_call" }] }),
      new ToolMessage({ tool_call_id: "l1", name: "list_directory", content: "big.txt" }),
    ];
    const view = fitToBudget(messages, 32_000, 3_000);
    expect(view.tokens).toBeLessThanOrEqual(32_000);
    expect(String(view.messages[2]?.content)).toMatch(
      /^Plan: row 0: [\s\S]*\[… your reply went on for [\d.]+ KB more \(1\.0 MB in all\); elided from this prompt/,
    );
  });

  it("stays under the budget when the newest reply has many arguments each just under the elision limit", () => {
    const calls = Array.from({ length: 6 }, (_, i) => ({
      id: `w${i}`,
      name: "write_file",
      args: { path: `f${i}.txt`, content: "z".repeat(5_900) },
      type: "tool_call" as const,
    }));
    const messages = [
      ...head(),
      new AIMessage({ content: "", tool_calls: calls }),
      ...calls.map((c) => new ToolMessage({ tool_call_id: c.id, name: "write_file", content: "Created", artifact: { ok: true, filesChanged: [c.args.path] } })),
    ];
    const view = fitToBudget(messages, 6_000, 500);
    expect(view.tokens).toBeLessThanOrEqual(6_000);
    expect(pairsIntact(view.messages)).toBe(true);
  });
});
