import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { AgentRunState, ESTIMATED_USAGE, ModelCallState, runUsage } from "../../src/agents/run.js";

describe("ModelCallState", () => {
  it("is the run state without the transcript, field for field the same definitions", () => {
    const run = AgentRunState.fields as Record<string, unknown>;
    const wrap = ModelCallState.fields as Record<string, unknown>;
    expect(Object.keys(wrap)).toEqual(Object.keys(run).filter((k) => k !== "messages"));
    // The same objects: the agent's merged state gets one definition per channel, whichever middleware declares it.
    for (const key of Object.keys(wrap)) expect(wrap[key]).toBe(run[key]);
  });
});

describe("runUsage", () => {
  it("sums the cached input the provider reported (cache_read); estimated calls and replies without it add none", () => {
    const reply = (input: number, output: number, cacheRead?: number, estimated = false) =>
      new AIMessage({
        content: "",
        usage_metadata: {
          input_tokens: input,
          output_tokens: output,
          total_tokens: input + output,
          ...(cacheRead === undefined ? {} : { input_token_details: { cache_read: cacheRead } }),
        },
        response_metadata: estimated ? { [ESTIMATED_USAGE]: true } : {},
      });
    const messages = [new HumanMessage("task"), reply(1000, 10, 768), reply(1200, 20), reply(1300, 5, 1024), reply(50, 5, undefined, true)];
    expect(runUsage(messages)).toEqual({ modelCalls: 4, inputTokens: 3550, cachedInputTokens: 1792, outputTokens: 40, estimatedCalls: 1 });
    // A note that ended a run without a model call has no usage: not a model reply.
    expect(runUsage([new AIMessage("stopped")]).cachedInputTokens).toBe(0);
  });
});
