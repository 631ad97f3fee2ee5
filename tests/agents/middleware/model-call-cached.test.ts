import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { runUsage } from "../../../src/agents/run.js";
import { priceRules } from "../../../src/models/cost/prices.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

/** A reply of the scripted model whose provider served `cacheRead` of its 100 input tokens from its prompt cache. */
function cached(reply: AIMessage, cacheRead: number): AIMessage {
  return new AIMessage({
    content: reply.content,
    tool_calls: reply.tool_calls ?? [],
    usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110, input_token_details: { cache_read: cacheRead } },
  });
}

describe("usage middleware with a provider's prompt cache", () => {
  it("counts the cached input in the session's running totals and prices it at the cached-input price", async () => {
    const models = scriptedModels({
      coder: [
        cached(calls({ name: "read_file", args: { path: "a.txt" } }), 80),
        cached(calls({ name: "submit_work", args: { status: "done", summary: "ok" } }), 90),
      ],
    });
    const { final, events } = await runToEnd(AGENT_SPECS.coder, models, {
      workspace: ws.root,
      usageBase: { "coder:fake-coder": { inputTokens: 1000, cachedInputTokens: 600, outputTokens: 100, calls: 1, estimatedCalls: 0 } },
      deps: { prices: priceRules({ "fake-*": { input: 2, output: 8, cachedInput: 0.5 } }, "test") },
    });
    expect(runUsage(final.messages)).toMatchObject({ modelCalls: 2, inputTokens: 200, cachedInputTokens: 170 });
    // Before the run: 400 × $2 + 600 × $0.5 + 100 × $8 per 1M = $0.0019. This run after its first call:
    // 20 × $2 + 80 × $0.5 + 10 × $8 = $0.00016; after its second: 30 × $2 + 170 × $0.5 + 20 × $8 = $0.000305.
    expect(ofType(events, "model_call").map((e) => e.total)).toEqual([
      { inputTokens: 1100, cachedInputTokens: 680, outputTokens: 110, calls: 2, costUsd: 0.00206, estimated: false },
      { inputTokens: 1200, cachedInputTokens: 770, outputTokens: 120, calls: 3, costUsd: 0.002205, estimated: false },
    ]);
  });
});
