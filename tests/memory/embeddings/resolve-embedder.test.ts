import { describe, expect, it } from "vitest";
import { cosineSimilarity, createEmbedder, EmbedderError, LOCAL_HASH_ID, resolveEmbedder } from "../../../src/memory/embeddings/index.js";

function resolveError(env: NodeJS.ProcessEnv): EmbedderError {
  try {
    resolveEmbedder(env);
  } catch (error) {
    expect(error).toBeInstanceOf(EmbedderError);
    return error as EmbedderError;
  }
  throw new Error("expected an EmbedderError");
}

describe("resolveEmbedder", () => {
  it.each<[string, NodeJS.ProcessEnv]>([
    ["unset", {}],
    ["empty", { MINI_CURSOR_EMBEDDINGS: "" }],
    ["local", { MINI_CURSOR_EMBEDDINGS: "local" }],
    ["padded upper case", { MINI_CURSOR_EMBEDDINGS: " LOCAL " }],
    ["unset, even with OpenAI configured for chat", { OPENAI_API_KEY: "sk-x", MINI_CURSOR_EMBEDDING_MODEL: "m" }],
  ])("uses the local embedder when MINI_CURSOR_EMBEDDINGS is %s", (_name, env) => {
    expect(resolveEmbedder(env).id).toBe(LOCAL_HASH_ID);
  });

  it("names the allowed values for an unknown kind", () => {
    const error = resolveError({ MINI_CURSOR_EMBEDDINGS: "chroma-default" });
    expect(error.message).toContain('"chroma-default"');
    expect(error.message).toContain("local, openai");
  });

  it("requires MINI_CURSOR_EMBEDDING_MODEL for openai", () => {
    const error = resolveError({ MINI_CURSOR_EMBEDDINGS: "openai", OPENAI_API_KEY: "sk-x" });
    expect(error.message).toContain("MINI_CURSOR_EMBEDDING_MODEL");
    expect(error.message).toContain("text-embedding-3-small");
  });

  it("requires a key when the base URL defaults to OpenAI", () => {
    const error = resolveError({ MINI_CURSOR_EMBEDDINGS: "openai", MINI_CURSOR_EMBEDDING_MODEL: "text-embedding-3-small" });
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(error.message).toContain("MINI_CURSOR_EMBEDDING_BASE_URL");
  });

  it("builds the OpenAI embedder from OPENAI_API_KEY without calling anything", () => {
    const embedder = resolveEmbedder({
      MINI_CURSOR_EMBEDDINGS: "openai",
      MINI_CURSOR_EMBEDDING_MODEL: "text-embedding-3-small",
      OPENAI_API_KEY: "sk-x",
    });
    expect(embedder.id).toBe("openai-compatible:text-embedding-3-small");
  });
});

describe("createEmbedder", () => {
  it("builds the embedder the resolved settings name", () => {
    expect(createEmbedder({ kind: "local" }).id).toBe(LOCAL_HASH_ID);
    expect(createEmbedder({ kind: "openai", model: "m", apiKey: "k" }).id).toBe("openai-compatible:m");
    // Nothing is imported or downloaded until the first text is embedded.
    expect(createEmbedder({ kind: "transformers", model: "Xenova/all-MiniLM-L6-v2", cacheDir: "/nonexistent/cache" }).id).toBe(
      "transformers:Xenova/all-MiniLM-L6-v2",
    );
  });
});

describe("cosineSimilarity", () => {
  it("is 1 for the same direction, 0 for orthogonal, -1 for opposite", () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
  });

  it("is 0, not NaN, when a vector is zero", () => {
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
    expect(cosineSimilarity([], [])).toBe(0);
  });

  it("refuses vectors of different lengths", () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(EmbedderError);
  });
});
