import { HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { CheckedChatCompletions } from "../../src/models/checked-completions.js";
import { ModelCallError } from "../../src/models/model-errors.js";
import { freePort } from "../helpers/free-port.js";
import { startScriptedOpenAIServer, type Script, type ScriptedServer } from "../helpers/scripted-openai-server.js";

/** The real client against a real scripted server on 127.0.0.1: each failure as the user's endpoint produces it. */
const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedOpenAIServer(script);
  servers.push(server);
  return server;
}

function client(baseUrl: string, o: { maxRetries?: number; timeoutMs?: number; promptCacheKey?: "on" | "off" } = {}): CheckedChatCompletions {
  return new CheckedChatCompletions({
    model: "scripted",
    apiKey: "test",
    baseUrl,
    endpoint: baseUrl,
    timeoutMs: o.timeoutMs ?? 10_000,
    maxRetries: o.maxRetries ?? 2,
    rateLimitDelayMs: 5,
    malformedDelayMs: 5,
    ...(o.promptCacheKey ? { promptCacheKey: o.promptCacheKey } : {}),
  });
}

/** The error a call ends with (the test fails if it succeeds). */
async function failureOf(call: Promise<unknown>): Promise<Error> {
  const error: unknown = await call.then(
    () => new Error("the call succeeded"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

function expectOneLine(error: Error, pattern: RegExp): void {
  expect(error).toBeInstanceOf(ModelCallError);
  expect(error.message).not.toContain("\n");
  expect(error.message).not.toMatch(/Troubleshooting URL|Cannot read properties|^terminated$|Request was aborted/);
  expect(error.message).toMatch(pattern);
}

const EMPTY = { rawBody: { id: "x", object: "chat.completion", created: 0, model: "scripted", choices: [] } };
const NO_MESSAGE = { rawBody: { id: "x", object: "chat.completion", created: 0, model: "scripted", choices: [{ index: 0 }] } };

describe("malformed replies are retried like transport errors", () => {
  it("asks again after `choices: []` and after a choice without a message, then returns the good reply", async () => {
    const server = await start((req) => (req.index === 0 ? EMPTY : req.index === 1 ? NO_MESSAGE : { content: "fine" }));
    const reply = await client(server.baseUrl).invoke([new HumanMessage("hi")]);
    expect(reply.content).toBe("fine");
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after maxRetries + 1 attempts with one line that says what the endpoint sent", async () => {
    const server = await start(() => EMPTY);
    const error = await failureOf(client(server.baseUrl, { maxRetries: 2 }).invoke("hi"));
    expectOneLine(error, /sent 3 replies in a row that was not a chat completion \(choices: \[\] \(no answer\)\)/);
    expect(error.message).toContain(server.baseUrl);
    expect(server.requests).toHaveLength(3);
  });

  it("accepts an empty answer that the endpoint finished normally", async () => {
    const server = await start(() => ({ content: "" }));
    expect((await client(server.baseUrl).invoke("hi")).content).toBe("");
    expect(server.requests).toHaveLength(1);
  });
});

describe("rate limits", () => {
  it("waits and asks again after a 429 without Retry-After", async () => {
    const server = await start((req) => (req.index < 2 ? { httpStatus: 429, error: "Rate limit reached for requests" } : { content: "after the wait" }));
    expect((await client(server.baseUrl).invoke("hi")).content).toBe("after the wait");
    expect(server.requests).toHaveLength(3);
  });

  it("a persistent 429 ends in one line, not LangChain's three", async () => {
    const server = await start(() => ({ httpStatus: 429, error: "Rate limit reached for requests" }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 0 }).invoke("hi"));
    expectOneLine(error, /answered 429 Too Many Requests 4 times in a row \("Rate limit reached for requests"\): wait a minute/);
    expect(server.requests).toHaveLength(4);
  });

  it("does not retry an exhausted quota", async () => {
    const server = await start(() => ({ httpStatus: 429, error: "You exceeded your current quota, please check your plan and billing details." }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 0 }).invoke("hi"));
    expectOneLine(error, /quota is used up/);
    expect(server.requests).toHaveLength(1);
  });
});

describe("transport faults say what happened, in one line", () => {
  it("a connection dropped mid-reply ('terminated')", async () => {
    const server = await start(() => ({ cutOff: true }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 1 }).invoke("hi"));
    expectOneLine(error, /closed the connection in the middle of a reply \(2 times\)/);
    expect(server.requests).toHaveLength(2);
  });

  it("nothing listening", async () => {
    const port = await freePort();
    const error = await failureOf(client(`http://127.0.0.1:${port}/v1`, { maxRetries: 0 }).invoke("hi"));
    expectOneLine(error, /could not connect to the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 \(once\)/);
  });

  it("a stalled endpoint (the per-attempt timeout)", async () => {
    const server = await start(() => ({ hangMs: 30_000 }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 0, timeoutMs: 300 }).invoke("hi"));
    expectOneLine(error, /did not answer within 0.3 s \(once\)/);
  });

  it("the call's own deadline ('Request was aborted.')", async () => {
    const server = await start(() => ({ hangMs: 30_000 }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 0 }).invoke("hi", { signal: AbortSignal.timeout(300) }));
    expectOneLine(error, /was cut off at its deadline/);
  });

  it("a 500 names its status and the attempts; a 404 names the model", async () => {
    const failing = await start(() => ({ httpStatus: 500, error: "upstream exploded" }));
    expectOneLine(await failureOf(client(failing.baseUrl, { maxRetries: 1 }).invoke("hi")), /failed with HTTP 500 2 times \("upstream exploded"\)/);
    const missing = await start(() => ({ httpStatus: 404, error: "model 'scripted' not found" }));
    expectOneLine(await failureOf(client(missing.baseUrl).invoke("hi")), /answered 404 for model "scripted"/);
  });

  it("leaves the run's own abort (Ctrl-C) untouched", async () => {
    const server = await start(() => ({ hangMs: 30_000 }));
    const controller = new AbortController();
    const call = client(server.baseUrl).invoke("hi", { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const error = await failureOf(call);
    expect(error).not.toBeInstanceOf(ModelCallError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("prompt_cache_key (issue 46)", () => {
  const cacheKey = (req: { body: unknown }) => (req.body as { prompt_cache_key?: unknown }).prompt_cache_key;

  it("is sent when the call gives one (MINI_CURSOR_PROMPT_CACHE_KEY=on), not when off", async () => {
    const server = await start(() => ({ content: "ok" }));
    await client(server.baseUrl, { promptCacheKey: "on" }).invoke("hi", { promptCacheKey: "coder-1234" });
    await client(server.baseUrl, { promptCacheKey: "off" }).invoke("hi", { promptCacheKey: "coder-1234" });
    expect(server.requests.map(cacheKey)).toEqual(["coder-1234", undefined]);
  });

  it("is not sent to an endpoint on this machine by default (vLLM and llama.cpp cache without it)", async () => {
    const server = await start(() => ({ content: "ok" }));
    await client(server.baseUrl).invoke("hi", { promptCacheKey: "coder-1234" });
    expect(server.requests.map(cacheKey)).toEqual([undefined]);
  });

  it("is dropped, once and for good, by an endpoint that refuses it (as strict OpenAI-compatible servers answer 400)", async () => {
    const server = await start((req) =>
      cacheKey(req) !== undefined ? { httpStatus: 400, error: "Unrecognized request argument supplied: prompt_cache_key" } : { content: "without the key" },
    );
    const model = client(server.baseUrl, { maxRetries: 0, promptCacheKey: "on" });
    expect((await model.invoke("hi", { promptCacheKey: "coder-1234" })).content).toBe("without the key");
    expect((await model.invoke("again", { promptCacheKey: "coder-1234" })).content).toBe("without the key");
    expect(server.requests.map(cacheKey)).toEqual(["coder-1234", undefined, undefined]);
  });

  it("does not hide any other 400", async () => {
    const server = await start(() => ({ httpStatus: 400, error: "messages: too long" }));
    const error = await failureOf(client(server.baseUrl, { maxRetries: 0, promptCacheKey: "on" }).invoke("hi", { promptCacheKey: "coder-1234" }));
    expectOneLine(error, /messages: too long/);
    expect(server.requests).toHaveLength(1);
  });
});
