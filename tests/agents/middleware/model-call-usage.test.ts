import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { toolsOverhead } from "../../../src/agents/middleware/context-budget.js";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { declaredTools } from "../../../src/agents/middleware/tool-calls.js";
import { createFinishTool } from "../../../src/agents/agent-tools.js";
import { offeredTools } from "../../../src/agents/agent-tools.js";
import type { ToolName } from "../../../src/tools/index.js";
import { ESTIMATED_USAGE, runUsage, markedStop } from "../../../src/agents/run.js";
import { estimateTokens, messageChars } from "../../../src/models/cost/estimate.js";
import { priceRules } from "../../../src/models/cost/prices.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { aiMessages, ofType, runToEnd } from "../agent-harness.js";
import { askUserTool } from "../../../src/tools/ask-user.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const read = () => calls({ name: "read_file", args: { path: "a.txt" } });

describe("usage middleware", () => {
  it("stamps an estimate on a reply that carries no usage, and says so", async () => {
    const models = scriptedModels({ coder: [new AIMessage({ content: "All done, nothing to change here." })] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("text");
    expect(outcome.modelCalls).toBe(1);
    expect(runUsage(final.messages)).toMatchObject({ modelCalls: 1, estimatedCalls: 1 });

    const prompt = models.seen.coder?.[0] ?? [];
    const overhead = toolsOverhead([
      ...declaredTools(offeredTools(coder, { approval: "auto" }, { memory: false }) as ToolName[]),
      createFinishTool(coder.finishTool),
      askUserTool,
    ]);
    expect(overhead).toBeGreaterThan(0);
    const inputTokens = estimateTokens(prompt.reduce((sum, m) => sum + messageChars(m), 0)) + overhead;
    const outputTokens = estimateTokens("All done, nothing to change here.".length);

    const reply = aiMessages(final.messages).at(-1);
    expect(reply?.usage_metadata).toEqual({ input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens });
    expect(reply?.response_metadata?.[ESTIMATED_USAGE]).toBe(true);
    expect(ofType(events, "model_call")).toEqual([
      {
        type: "model_call",
        agent: "coder",
        model: "fake-coder",
        inputTokens,
        outputTokens,
        estimated: true,
        total: { inputTokens, outputTokens, calls: 1, costUsd: null, estimated: true },
      },
    ]);
  });

  it("treats a usage of zeros as missing", async () => {
    const zeros = new AIMessage({ content: "done", usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } });
    const { final, events } = await runToEnd(coder, scriptedModels({ coder: [zeros] }), { workspace: ws.root });
    expect(runUsage(final.messages).estimatedCalls).toBe(1);
    expect(ofType(events, "model_call")[0]?.estimated).toBe(true);
    expect(ofType(events, "model_call")[0]?.inputTokens).toBeGreaterThan(0);
  });

  it("keeps the provider's usage and reports running session totals that include the usage before the run", async () => {
    const models = scriptedModels({ coder: [read(), done()] });
    const { final, events } = await runToEnd(coder, models, {
      workspace: ws.root,
      usageBase: {
        "coder:fake-coder": { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 200, calls: 4, estimatedCalls: 0 },
        "planner:fake-planner": { inputTokens: 500, cachedInputTokens: 0, outputTokens: 50, calls: 2, estimatedCalls: 0 },
      },
      deps: { prices: priceRules({ "fake-*": { input: 1, output: 2 } }, "test") },
    });
    expect(runUsage(final.messages)).toEqual({ modelCalls: 2, inputTokens: 200, cachedInputTokens: 0, outputTokens: 20, estimatedCalls: 0 });
    const modelCalls = ofType(events, "model_call");
    expect(modelCalls.map((e) => [e.inputTokens, e.outputTokens, e.estimated])).toEqual([
      [100, 10, false],
      [100, 10, false],
    ]);
    // Both fake models priced at $1/$2 per 1M: (1600 in × 1 + 260 out × 2) / 1M, then one more call of 100 in and 10 out.
    expect(modelCalls.map((e) => e.total)).toEqual([
      { inputTokens: 1600, outputTokens: 260, calls: 7, costUsd: 0.00212, estimated: false },
      { inputTokens: 1700, outputTokens: 270, calls: 8, costUsd: 0.00224, estimated: false },
    ]);
  });

  it("stops the run before any model call when the session's token budget is already spent", async () => {
    const models = scriptedModels({ coder: [read(), done()] });
    const { final, outcome, events } = await runToEnd(coder, models, {
      workspace: ws.root,
      usageBase: { "coder:fake-coder": { inputTokens: 500, cachedInputTokens: 0, outputTokens: 100, calls: 3, estimatedCalls: 0 } },
      budget: { tokens: 600 },
    });
    expect(models.seen.coder).toBeUndefined();
    expect(outcome.stopReason).toBe("budget");
    expect(outcome.stopDetail).toBe("token budget of 600 reached (600 used)");
    expect(markedStop(final.messages.at(-1))).toEqual({ kind: "budget", detail: outcome.stopDetail });
    expect(outcome.modelCalls).toBe(0);
    // The only AI message is the note that ended the run; it is not a model reply.
    expect(aiMessages(final.messages).map((m) => m.usage_metadata)).toEqual([undefined]);
    expect(ofType(events, "model_call")).toHaveLength(0);
  });

  it("stops mid-run once this run's calls use up the budget", async () => {
    const models = scriptedModels({ coder: [read(), calls({ name: "list_directory", args: { path: "." } }), done()] });
    const { outcome, events } = await runToEnd(coder, models, {
      workspace: ws.root,
      usageBase: { "coder:fake-coder": { inputTokens: 100, cachedInputTokens: 0, outputTokens: 0, calls: 1, estimatedCalls: 0 } },
      budget: { tokens: 300 },
    });
    // 100 before, +110 → 210 (room left), +110 → 320: the third call is not made.
    expect(models.seen.coder).toHaveLength(2);
    expect(outcome.stopReason).toBe("budget");
    expect(outcome.stopDetail).toBe("token budget of 300 reached (320 used)");
    expect(ofType(events, "model_call")).toHaveLength(2);
  });

  it("stops on a cost budget with priced models", async () => {
    const models = scriptedModels({ coder: [read(), done()] });
    const { outcome } = await runToEnd(coder, models, {
      workspace: ws.root,
      usageBase: { "coder:fake-coder": { inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0, calls: 1, estimatedCalls: 0 } },
      budget: { usd: 1 },
      deps: { prices: priceRules({ "fake-coder": { input: 1, output: 1 } }, "test") },
    });
    expect(models.seen.coder).toBeUndefined();
    expect(outcome.stopReason).toBe("budget");
    expect(outcome.stopDetail).toMatch(/^cost budget of .* reached/);
  });
});
