import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder } from "../../../src/memory/embeddings/openai-compatible.js";
import { EmbedderError } from "../../../src/memory/embeddings/types.js";
import { embedWithRetries, type RetryContext } from "../../../src/memory/retrieval/embed-retry.js";
import type { EmbedWait } from "../../../src/memory/retrieval/types.js";
import { fakeVector, openAIAnswer, startEmbeddingsServer, type EmbeddingsReply, type EmbeddingsServer } from "../embeddings/embeddings-server.js";

let server: EmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A real embeddings server on 127.0.0.1 that gives these answers first, then vectors. */
async function serverAnswering(first: EmbeddingsReply[]): Promise<EmbeddingsServer> {
  server = await startEmbeddingsServer({ reply: (_req, inputs) => first.shift() ?? { json: openAIAnswer(inputs, 4) } });
  return server;
}

const embedderOf = (s: EmbeddingsServer) => createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m", timeoutMs: 2_000 });
const rateLimited = (ms: number): EmbeddingsReply => ({
  status: 429,
  json: { error: { message: "Rate limit reached" } },
  headers: { "retry-after-ms": String(ms) },
});
const overloaded: EmbeddingsReply = { status: 503, json: { error: "overloaded" } };

function context(waits: EmbedWait[], more: Partial<RetryContext> = {}): RetryContext {
  return { clock: { now: () => Date.now() }, policy: { attempts: 4, firstDelayMs: 40, maxDelayMs: 5_000 }, onWait: (w) => waits.push(w), ...more };
}

describe("embedWithRetries against a real embeddings server", () => {
  it("waits as long as a rate-limited server asks, then gets the vectors", async () => {
    const s = await serverAnswering([rateLimited(120), rateLimited(60)]);
    const waits: EmbedWait[] = [];
    const started = Date.now();
    const vectors = await embedWithRetries(embedderOf(s), ["a", "b"], context(waits));
    expect(vectors).toEqual([fakeVector("a", 4), fakeVector("b", 4)]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    expect(s.requests).toHaveLength(3);
    expect(waits.map((w) => [w.waitMs, w.attempt, w.attempts])).toEqual([
      [120, 1, 4],
      [60, 2, 4],
    ]);
    expect(waits[0]?.reason).toContain("HTTP 429: Rate limit reached");
  });

  it("doubles its own wait when the server says nothing, and throws the last failure when the attempts run out", async () => {
    const s = await serverAnswering([overloaded, overloaded, overloaded, overloaded, overloaded]);
    const waits: EmbedWait[] = [];
    const error = await embedWithRetries(embedderOf(s), ["a"], context(waits)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toContain("HTTP 503: overloaded");
    expect(waits.map((w) => w.waitMs)).toEqual([40, 80, 160]);
    expect(s.requests).toHaveLength(4);
  });

  it("does not retry a failure that another attempt would not fix", async () => {
    const s = await serverAnswering([{ status: 400, json: { error: { message: "input is too long" } } }]);
    const waits: EmbedWait[] = [];
    await expect(embedWithRetries(embedderOf(s), ["a"], context(waits))).rejects.toThrow(/HTTP 400: input is too long/);
    expect(s.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("stops instead of waiting past the time box, or longer than it ever waits (a daily quota)", async () => {
    const s = await serverAnswering([rateLimited(3_000), rateLimited(3_600_000)]);
    const waits: EmbedWait[] = [];
    const ctx = context(waits, { deadline: Date.now() + 1_000 });
    expect(await embedWithRetries(embedderOf(s), ["a"], ctx)).toEqual({ reason: "time" });
    const quota = await embedWithRetries(embedderOf(s), ["a"], context(waits));
    expect(quota).toMatchObject({ reason: "rate-limit", retryAfterMs: 3_600_000 });
    expect(quota).toHaveProperty("detail", expect.stringContaining("HTTP 429"));
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(2);
  });

  it("ends a wait soon after it is told to stop (a session ending must not sit out a long Retry-After)", async () => {
    const s = await serverAnswering([rateLimited(30_000)]);
    let stop = false;
    setTimeout(() => (stop = true), 100);
    const started = Date.now();
    const result = await embedWithRetries(
      embedderOf(s),
      ["a"],
      context([], { shouldStop: () => stop, policy: { attempts: 3, firstDelayMs: 40, maxDelayMs: 60_000 } }),
    );
    expect(result).toEqual({ reason: "stop" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(s.requests).toHaveLength(1);
  });
});
