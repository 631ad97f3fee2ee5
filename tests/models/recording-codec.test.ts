import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runUsage } from "../../src/agents/run.js";
import { decode, encode, recordResponse, replayedMessage, type RecordedResponse } from "../../src/models/recording-codec.js";

/** Recorded, stored and read back as a replay does. */
function roundTrip(message: AIMessage): AIMessage {
  return replayedMessage(decode<RecordedResponse>(encode(recordResponse(message, "stop"))));
}

describe("recorded usage", () => {
  it("keeps the cached input of a reply, so a replayed session reports the same cached tokens", () => {
    const usage_metadata = { input_tokens: 2000, output_tokens: 40, total_tokens: 2040, input_token_details: { cache_read: 1536 } };
    const replayed = roundTrip(new AIMessage({ content: "done", usage_metadata }));
    expect(replayed.usage_metadata).toEqual(usage_metadata);
    expect(runUsage([replayed])).toMatchObject({ inputTokens: 2000, cachedInputTokens: 1536 });
  });

  it("records no details when the reply had none, and replays a recording from before they were kept", () => {
    const plain = { input_tokens: 100, output_tokens: 10, total_tokens: 110 };
    expect(recordResponse(new AIMessage({ content: "ok", usage_metadata: plain })).usage).toEqual(plain);
    const old: RecordedResponse = { content: "ok", toolCalls: [], invalidToolCalls: [], usage: plain };
    expect(runUsage([replayedMessage(old)])).toMatchObject({ inputTokens: 100, cachedInputTokens: 0 });
  });
});
