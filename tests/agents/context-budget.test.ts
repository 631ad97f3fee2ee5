import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { countTokens, fitToBudget } from "../../src/agents/context-budget.js";

function transcript(turns: number, outputChars: number): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage("You are the coder."), new HumanMessage("Your step: fix the tests.")];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    const call = i % 2 === 0 ? { name: "read_file", args: { path: `src/file${i}.ts` } } : { name: "execute_command", args: { command: `npm test -- case${i}` } };
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
  const model = fakeModel();

  it("leaves a small transcript alone", async () => {
    const messages = transcript(3, 200);
    const view = await fitToBudget(messages, 10_000, 500, model);
    expect(view.messages).toEqual(messages);
    expect(view.cleared).toBe(false);
  });

  it("clears older tool output first, keeping the newest results and every call/result pair", async () => {
    const messages = transcript(12, 4_000);
    const before = countTokens(messages);
    const view = await fitToBudget(messages, 9_000, 500, model);
    expect(view.cleared).toBe(true);
    expect(view.tokens).toBeLessThanOrEqual(9_000);
    expect(countTokens(messages)).toBe(before); // the stored transcript is untouched
    const results = view.messages.filter((m) => ToolMessage.isInstance(m));
    expect(String(results.at(-1)?.content)).toMatch(/^Exit code/);
    expect(String(results[0]?.content)).toMatch(/older tool output cleared/);
    expect(pairsIntact(view.messages)).toBe(true);
  });

  it("folds the oldest turns into a summary of files, commands and errors when clearing is not enough", async () => {
    const messages = transcript(40, 600);
    const view = await fitToBudget(messages, 2_500, 300, model);
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
