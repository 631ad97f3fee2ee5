import { afterEach, describe, expect, it } from "vitest";
import { resolveEmbedder } from "../../../src/memory/embeddings/index.js";
import { startEmbeddingsServer, type EmbeddingsServer } from "./embeddings-server.js";

// The settings resolveEmbedder reads, checked against a local embeddings server (the rest: resolve-embedder.test.ts).
let server: EmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("resolveEmbedder", () => {
  it("uses MINI_CURSOR_EMBEDDING_BASE_URL with the 'not-needed' key when no key is set", async () => {
    server = await startEmbeddingsServer({ dimension: 5 });
    const embedder = resolveEmbedder({
      MINI_CURSOR_EMBEDDINGS: "openai",
      MINI_CURSOR_EMBEDDING_MODEL: "nomic-embed-text",
      MINI_CURSOR_EMBEDDING_BASE_URL: server.baseUrl,
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
    });
    expect(embedder.id).toBe("openai-compatible:nomic-embed-text");
    expect(await embedder.dimension()).toBe(5);
    expect(server.requests[0]).toMatchObject({ authorization: "Bearer not-needed", body: { model: "nomic-embed-text" } });
  });

  it("falls back to OPENAI_BASE_URL, and prefers MINI_CURSOR_EMBEDDING_API_KEY over OPENAI_API_KEY", async () => {
    server = await startEmbeddingsServer();
    const embedder = resolveEmbedder({
      MINI_CURSOR_EMBEDDINGS: "openai",
      MINI_CURSOR_EMBEDDING_MODEL: "m",
      MINI_CURSOR_EMBEDDING_BASE_URL: "",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "sk-chat",
      MINI_CURSOR_EMBEDDING_API_KEY: "sk-embed",
    });
    await embedder.embedQuery("hello");
    expect(server.requests[0]?.authorization).toBe("Bearer sk-embed");
  });

  it("uses OPENAI_API_KEY when no embedding key is set", async () => {
    server = await startEmbeddingsServer();
    const embedder = resolveEmbedder({
      MINI_CURSOR_EMBEDDINGS: "openai",
      MINI_CURSOR_EMBEDDING_MODEL: "m",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "sk-chat",
    });
    await embedder.embedQuery("hello");
    expect(server.requests[0]?.authorization).toBe("Bearer sk-chat");
  });
});
