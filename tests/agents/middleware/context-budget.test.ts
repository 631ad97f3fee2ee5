import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { countTokens, toolsOverhead } from "../../../src/agents/middleware/context-budget.js";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { declaredTools } from "../../../src/agents/middleware/tool-calls.js";
import { createFinishTool } from "../../../src/agents/agent-tools.js";
import { COMPACTED } from "../../../src/agents/run.js";
import { PROCESS_TOOLS } from "../../../src/tools/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { aiMessages, ofType, runToEnd, text, toolMessages } from "../agent-harness.js";

let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

const coder = AGENT_SPECS.coder;
const BUDGET = 6_000;
// The harness keeps no background processes and no codebase index, so those tools are not offered (src/agents/agent-tools.ts).
const overhead = toolsOverhead([
  ...declaredTools(coder.tools.filter((t) => !(PROCESS_TOOLS as readonly string[]).includes(t) && t !== "codebase_search")),
  createFinishTool(coder.finishTool),
]);

/** `count` files of about `chars` characters each, every line naming its file. */
async function bigFiles(count: number, chars: number): Promise<TempWorkspace> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    for (let n = 1; lines.join("\n").length < chars; n++) lines.push(`big${i}.txt line ${n}: ${"abcdefghij".repeat(3)}`);
    files[`big${i}.txt`] = `${lines.join("\n")}\n`;
  }
  return makeTempWorkspace(files);
}

function reads(count: number): AIMessage[] {
  return [
    ...Array.from({ length: count }, (_, i) => calls({ name: "read_file", args: { path: `big${i}.txt` } })),
    calls({ name: "submit_work", args: { status: "done", summary: "read them all" } }),
  ];
}

const edited = (m: BaseMessage) => {
  const t = text(m);
  return t.includes("older tool output cleared to keep the prompt within budget") || t.startsWith("[Summary of your first");
};

describe("context-budget middleware", () => {
  it("keeps every prompt under the budget, says so once, and leaves the stored transcript whole (clearing, then summarizing)", async () => {
    ws = await bigFiles(8, 12_000);
    const models = scriptedModels({ coder: reads(8) });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxPromptTokens: BUDGET, maxModelCalls: 20 });
    expect(outcome.stopReason).toBe("finished");
    const prompts = models.seen.coder ?? [];
    expect(prompts).toHaveLength(9);
    for (const prompt of prompts) expect(countTokens(prompt) + overhead).toBeLessThanOrEqual(BUDGET);
    // Without the edit the last prompts would not have fitted, and they were edited.
    expect(countTokens(final.messages) + overhead).toBeGreaterThan(BUDGET);
    expect(prompts.at(-1)?.some(edited)).toBe(true);
    expect(prompts[0]?.some(edited)).toBe(false);

    const notices = ofType(events, "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toMatch(new RegExp(`^coder s1: older context (cleared|summarized \\(\\d+ turns\\)) to keep prompts under ${BUDGET} tokens$`));
    expect(prompts.at(-1)?.some((m) => text(m).startsWith("[Summary of your first"))).toBe(true);

    // The stored transcript holds every original output; only the view was edited.
    const results = toolMessages(final.messages).filter((m) => m.name === "read_file");
    expect(results).toHaveLength(8);
    results.forEach((m, i) => {
      expect(text(m)).toContain(`big${i}.txt line 1: `);
      expect(text(m).length).toBeGreaterThan(5_000);
    });
    expect(final.messages.some(edited)).toBe(false);
    // Replies after the first edit are marked, so the notice is given once per run.
    const marks = aiMessages(final.messages).map((m) => m.response_metadata?.[COMPACTED] === true);
    expect(marks[0]).toBe(false);
    expect(marks.at(-1)).toBe(true);
  });

  it("clears older tool outputs when that is enough, keeping the newest ones in the prompt", async () => {
    ws = await bigFiles(8, 2_000);
    const models = scriptedModels({ coder: reads(8) });
    const { final, events } = await runToEnd(coder, models, { workspace: ws.root, maxPromptTokens: BUDGET, maxModelCalls: 20 });
    const prompts = models.seen.coder ?? [];
    for (const prompt of prompts) expect(countTokens(prompt) + overhead).toBeLessThanOrEqual(BUDGET);
    const notices = ofType(events, "notice");
    expect(notices.map((n) => n.message)).toEqual([`coder s1: older context cleared to keep prompts under ${BUDGET} tokens`]);
    const last = toolMessages(prompts.at(-1) ?? []);
    expect(text(last[0])).toContain("older tool output cleared");
    expect(text(last.at(-1))).toContain("big7.txt line 1: ");
    expect(toolMessages(final.messages).every((m: ToolMessage) => !text(m).includes("older tool output cleared"))).toBe(true);
  });

  it("leaves prompts alone while they fit", async () => {
    ws = await bigFiles(2, 500);
    const models = scriptedModels({ coder: reads(2) });
    const { final, events } = await runToEnd(coder, models, { workspace: ws.root, maxPromptTokens: BUDGET });
    expect(ofType(events, "notice")).toHaveLength(0);
    expect(models.seen.coder?.at(-1)?.length).toBe(final.messages.length - 2);
    expect(models.seen.coder?.at(-1)?.some(edited)).toBe(false);
  });
});
