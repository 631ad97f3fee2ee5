import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder } from "../../../src/memory/embeddings/openai-compatible.js";
import { EmbedderError } from "../../../src/memory/embeddings/types.js";
import { fakeVector, openAIAnswer, startEmbeddingsServer, type EmbeddingsReply, type EmbeddingsRequest, type EmbeddingsServer } from "./embeddings-server.js";
import { freePort } from "../../helpers/free-port.js";
import { embedderError } from "./embedder-error.js";

let server: EmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: { dimension?: number; reply?: (req: EmbeddingsRequest, inputs: string[]) => EmbeddingsReply } = {}): Promise<EmbeddingsServer> {
  server = await startEmbeddingsServer(options);
  return server;
}

describe("createOpenAICompatibleEmbedder", () => {
  it("posts the model and inputs to {baseUrl}/embeddings and returns one vector per text, in order", async () => {
    const s = await start({ dimension: 6 });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "sk-test", model: "nomic-embed-text" });
    expect(embedder.id).toBe("openai-compatible:nomic-embed-text");

    const vectors = await embedder.embedDocuments(["vitest needs --run in CI", "routes live in src/server/routes.ts"]);
    expect(vectors).toEqual([fakeVector("vitest needs --run in CI", 6), fakeVector("routes live in src/server/routes.ts", 6)]);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({
      path: "/v1/embeddings",
      authorization: "Bearer sk-test",
      body: {
        model: "nomic-embed-text",
        input: ["vitest needs --run in CI", "routes live in src/server/routes.ts"],
        encoding_format: "float",
      },
    });

    expect(await embedder.embedQuery("where are the routes?")).toEqual(fakeVector("where are the routes?", 6));
    expect(s.requests[1]?.body.input).toEqual(["where are the routes?"]);
  });

  it("accepts a base URL with a trailing slash", async () => {
    const s = await start();
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: `${s.baseUrl}/`, apiKey: "k", model: "m" });
    await embedder.embedQuery("hello");
    expect(s.requests[0]?.path).toBe("/v1/embeddings");
  });

  it("learns the dimension from one real call and caches it", async () => {
    const s = await start({ dimension: 12 });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    const [a, b] = await Promise.all([embedder.dimension(), embedder.dimension()]);
    expect([a, b]).toEqual([12, 12]);
    expect(await embedder.dimension()).toBe(12);
    expect(s.requests).toHaveLength(1);
  });

  it("knows the dimension without a probe once it has embedded something", async () => {
    const s = await start({ dimension: 3 });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    await embedder.embedDocuments(["one"]);
    expect(await embedder.dimension()).toBe(3);
    expect(s.requests).toHaveLength(1);
  });

  it("splits documents into batches of batchSize and keeps the order", async () => {
    const s = await start({ dimension: 4 });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m", batchSize: 2 });
    const texts = ["a1", "b2", "c3", "d4", "e5"];
    const vectors = await embedder.embedDocuments(texts);
    expect(s.requests.map((r) => r.body.input)).toEqual([["a1", "b2"], ["c3", "d4"], ["e5"]]);
    expect(vectors).toEqual(texts.map((t) => fakeVector(t, 4)));
  });

  it("makes no request for an empty list", async () => {
    const s = await start();
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    expect(await embedder.embedDocuments([])).toEqual([]);
    expect(s.requests).toHaveLength(0);
  });

  it("puts vectors back in input order when the server answers out of order", async () => {
    const s = await start({
      reply: (_req, inputs) => {
        const answer = openAIAnswer(inputs, 2) as { data: unknown[] };
        return { json: { ...answer, data: [...answer.data].reverse() } };
      },
    });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    expect(await embedder.embedDocuments(["xx", "yy", "zz"])).toEqual(["xx", "yy", "zz"].map((t) => fakeVector(t, 2)));
  });

  it("turns an HTTP 500 into an EmbedderError naming the URL, the model and the server's message", async () => {
    const s = await start({ reply: () => ({ status: 500, json: { error: { message: "model crashed" } } }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "nomic-embed-text" });
    const error = await embedderError(embedder.embedQuery("hello"));
    expect(error.message).toContain(`${s.baseUrl}/embeddings`);
    expect(error.message).toContain('"nomic-embed-text"');
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("model crashed");
    expect(s.requests).toHaveLength(1); // no hidden retries
  });

  it("reads Ollama's plain-string error and hints at the key on 401", async () => {
    const s = await start({ reply: () => ({ status: 401, json: { error: "invalid api key" } }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "wrong", model: "m" });
    const error = await embedderError(embedder.embedDocuments(["x"]));
    expect(error.message).toContain("invalid api key");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(error.message).not.toContain("wrong"); // the key itself is never echoed
  });

  it("hints at the /v1 path on 404", async () => {
    const s = await start();
    const withoutV1 = s.baseUrl.replace(/\/v1$/, "");
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: withoutV1, apiKey: "k", model: "m" });
    const error = await embedderError(embedder.embedQuery("x"));
    expect(error.message).toContain("HTTP 404");
    expect(error.message).toContain("/v1");
  });

  it.each<[string, unknown]>([
    ["no data array", { embeddings: [[1, 2]] }],
    ["a string embedding (base64)", { data: [{ index: 0, embedding: "AAAAAA==" }] }],
    ["non-numeric values", { data: [{ index: 0, embedding: [1, "2"] }] }],
    ["an empty vector", { data: [{ index: 0, embedding: [] }] }],
    ["too few embeddings", { data: [] }],
  ])("rejects an answer with %s", async (_name, json) => {
    const s = await start({ reply: () => ({ json }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    const error = await embedderError(embedder.embedQuery("x"));
    expect(error.message).toContain("unexpected answer shape");
    expect(error.message).toContain(`${s.baseUrl}/embeddings`);
  });

  it("rejects an answer that is not JSON", async () => {
    const s = await start({ reply: () => ({ status: 200, text: "<html>proxy login</html>" }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    expect((await embedderError(embedder.embedQuery("x"))).message).toContain("not JSON");
  });

  it("rejects vectors whose length changes between answers", async () => {
    let dimension = 4;
    const s = await start({ reply: (_req, inputs) => ({ json: openAIAnswer(inputs, dimension) }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    expect(await embedder.dimension()).toBe(4);
    dimension = 5;
    expect((await embedderError(embedder.embedQuery("x"))).message).toContain("earlier answers had 4");
  });

  it("does not cache a failed dimension probe", async () => {
    let calls = 0;
    const s = await start({
      reply: (_req, inputs) => (++calls === 1 ? { status: 503, json: { error: "loading model" } } : { json: openAIAnswer(inputs, 5) }),
    });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" });
    expect((await embedderError(embedder.dimension())).message).toContain("loading model");
    expect(await embedder.dimension()).toBe(5);
  });

  it("reports an unreachable server with its URL", async () => {
    const s = await start({ dimension: 7 });
    const baseUrl = s.baseUrl;
    await s.close();
    const embedder = createOpenAICompatibleEmbedder({ baseUrl, apiKey: "k", model: "m" });
    const error = await embedderError(embedder.dimension());
    expect(error.message).toContain(`${baseUrl}/embeddings`);
    expect(error.message).toContain("cannot reach the server");
  });

  it("gives up after timeoutMs when the server never answers", async () => {
    const s = await start({ reply: () => ({ hang: true }) });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m", timeoutMs: 200 });
    expect((await embedderError(embedder.embedQuery("x"))).message).toContain("no answer within 200 ms");
  });

  describe("says which failures are worth trying again later (the codebase index retries those)", () => {
    it("a rate limit, with the wait the server asked for (retry-after-ms first, else Retry-After)", async () => {
      const replies: EmbeddingsReply[] = [
        { status: 429, json: { error: { message: "Rate limit reached for requests" } }, headers: { "retry-after-ms": "1500", "retry-after": "2" } },
        { status: 429, json: { error: { message: "Rate limit reached for tokens" } }, headers: { "retry-after": "20" } },
        { status: 429, json: { error: { message: "slow down" } }, headers: { "retry-after": "Thu, 03 Dec 2026 10:00:30 GMT" } },
      ];
      const s = await start({ reply: () => replies.shift() ?? { json: openAIAnswer(["x"], 2) } });
      const clock = { now: () => Date.parse("Thu, 03 Dec 2026 10:00:00 GMT") };
      const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m", clock });
      const waits: { transient: boolean; retryAfterMs: number | undefined }[] = [];
      for (let i = 0; i < 3; i++) {
        const error = await embedderError(embedder.embedDocuments(["x"]));
        expect(error.message).toContain("HTTP 429");
        waits.push({ transient: error.transient, retryAfterMs: error.retryAfterMs });
      }
      expect(waits).toEqual([
        { transient: true, retryAfterMs: 1500 },
        { transient: true, retryAfterMs: 20_000 },
        { transient: true, retryAfterMs: 30_000 },
      ]);
    });

    it("an overloaded server without a wait, and a server that never answers", async () => {
      const s = await start({
        reply: (req) =>
          req.body.input && JSON.stringify(req.body.input).includes("hang") ? { hang: true } : { status: 503, json: { error: "loading model" } },
      });
      const embedder = createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m", timeoutMs: 200 });
      const busy = await embedderError(embedder.embedDocuments(["x"]));
      expect([busy.transient, busy.retryAfterMs]).toEqual([true, undefined]);
      const silent = await embedderError(embedder.embedDocuments(["hang"]));
      expect(silent.message).toContain("no answer within 200 ms");
      expect(silent.transient).toBe(true);
    });

    it("not a 429 for a used-up quota, which no wait fixes", async () => {
      const s = await start({
        reply: () => ({
          status: 429,
          json: {
            error: {
              message: "You exceeded your current quota, please check your plan and billing details.",
              type: "insufficient_quota",
              code: "insufficient_quota",
            },
          },
          headers: { "retry-after": "20" },
        }),
      });
      const error = await embedderError(createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey: "k", model: "m" }).embedQuery("x"));
      expect(error.message).toContain("You exceeded your current quota");
      expect([error.transient, error.retryAfterMs]).toEqual([false, undefined]);
    });

    it("not a bad request, a wrong key, a wrong URL or a server that is not running", async () => {
      const s = await start({
        reply: (req) =>
          req.authorization === "Bearer wrong"
            ? { status: 401, json: { error: "invalid api key" } }
            : { status: 400, json: { error: { message: "input too long" } }, headers: { "retry-after": "1" } },
      });
      for (const apiKey of ["k", "wrong"]) {
        const error = await embedderError(createOpenAICompatibleEmbedder({ baseUrl: s.baseUrl, apiKey, model: "m" }).embedQuery("x"));
        expect([error.transient, error.retryAfterMs]).toEqual([false, undefined]);
      }
      // A port nothing listens on (a closed server's kept-alive socket would fail as "other side closed": transient).
      const refused = await embedderError(
        createOpenAICompatibleEmbedder({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, apiKey: "k", model: "m" }).embedQuery("x"),
      );
      expect(refused.message).toContain("cannot reach the server");
      expect(refused.transient, refused.message).toBe(false);
    });
  });

  it("rejects a missing model and a bad batch size up front", () => {
    expect(() => createOpenAICompatibleEmbedder({ apiKey: "k", model: "" })).toThrow(EmbedderError);
    expect(() => createOpenAICompatibleEmbedder({ apiKey: "k", model: "m", batchSize: 0 })).toThrow(/batchSize/);
  });
});
