import { describe, expect, it } from "vitest";
import { resolveMemoryStoreConfig } from "../../../src/platform/config/memory-settings.js";
import { ConfigError } from "../../../src/platform/config-file.js";

const base = { MINI_CURSOR_DATA_DIR: "/data/mc" };

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    resolveMemoryStoreConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("remote Chroma access settings", () => {
  it("defaults to Chroma's default tenant and database and no token with CHROMA_URL alone", () => {
    expect(resolveMemoryStoreConfig({ ...base, CHROMA_URL: "http://chroma.internal:8000" })).toMatchObject({
      chromaUrl: "http://chroma.internal:8000",
      chromaAccess: { tenant: "default_tenant", database: "default_database", authHeader: "authorization" },
    });
    expect(resolveMemoryStoreConfig({ ...base, CHROMA_URL: "http://c:8000" }).chromaAccess?.token).toBeUndefined();
  });

  it("reads the token, its header, the tenant and the database", () => {
    const settings = resolveMemoryStoreConfig({
      ...base,
      CHROMA_URL: "https://chroma.example.com",
      CHROMA_TOKEN: " t0ken ",
      CHROMA_AUTH_HEADER: "X_CHROMA_TOKEN",
      CHROMA_TENANT: "acme",
      CHROMA_DATABASE: "agents",
    });
    expect(settings.chromaAccess).toEqual({ tenant: "acme", database: "agents", token: "t0ken", authHeader: "x-chroma-token" });
    expect(resolveMemoryStoreConfig({ ...base, CHROMA_URL: "http://c:8000", CHROMA_AUTH_HEADER: "Authorization" }).chromaAccess?.authHeader).toBe(
      "authorization",
    );
  });

  it("keeps a local server's settings as they were: no access part without CHROMA_URL", () => {
    expect(resolveMemoryStoreConfig(base)).toEqual({ dataDir: "/data/mc", chromaIdleSeconds: 300, embeddings: { kind: "local" } });
  });

  it("refuses access settings without CHROMA_URL, naming them", () => {
    expect(configError({ ...base, CHROMA_TOKEN: "secret-1" }).message).toBe(
      "CHROMA_TOKEN is for a remote Chroma and needs CHROMA_URL; the local server takes none",
    );
    expect(configError({ ...base, CHROMA_TENANT: "a", CHROMA_DATABASE: "b" }).message).toBe(
      "CHROMA_TENANT, CHROMA_DATABASE are for a remote Chroma and need CHROMA_URL; the local server takes none",
    );
  });

  it("refuses an unknown header and a token no header can carry, without printing the token", () => {
    expect(configError({ ...base, CHROMA_URL: "http://c:8000", CHROMA_AUTH_HEADER: "cookie" }).message).toBe(
      'CHROMA_AUTH_HEADER must be authorization (Authorization: Bearer <token>) or x-chroma-token, got "cookie"',
    );
    const bad = configError({ ...base, CHROMA_URL: "http://c:8000", CHROMA_TOKEN: "abc\ndef" });
    expect(bad.message).toBe("CHROMA_TOKEN contains whitespace or a control character; an HTTP header cannot carry it");
    expect(bad.message).not.toContain("abc");
  });
});

describe("MINI_CURSOR_CHROMA_IDLE", () => {
  it("is how long a local server idles after its last session: 300 s unless set, 0 stops it with the session", () => {
    expect(resolveMemoryStoreConfig(base).chromaIdleSeconds).toBe(300);
    expect(resolveMemoryStoreConfig({ ...base, MINI_CURSOR_CHROMA_IDLE: "0" }).chromaIdleSeconds).toBe(0);
    expect(resolveMemoryStoreConfig({ ...base, MINI_CURSOR_CHROMA_IDLE: " 45 " }).chromaIdleSeconds).toBe(45);
  });

  it("refuses what is not whole seconds up to a day, in one line that says what it is for", () => {
    for (const bad of ["-1", "1.5", "5m", "86401", "lots"]) {
      expect(configError({ ...base, MINI_CURSOR_CHROMA_IDLE: bad }).message).toBe(
        `MINI_CURSOR_CHROMA_IDLE must be whole seconds from 0 (stop the local Chroma server with the last session) to 86400, got "${bad}"`,
      );
    }
  });
});

describe("MINI_CURSOR_EMBEDDINGS=transformers", () => {
  const transformers = { ...base, MINI_CURSOR_EMBEDDINGS: "Transformers", HOME: "/home/u" };

  it("defaults to a small sentence model and the user's cache folder", () => {
    expect(resolveMemoryStoreConfig(transformers).embeddings).toEqual({
      kind: "transformers",
      model: "Xenova/all-MiniLM-L6-v2",
      cacheDir: "/home/u/.cache/mini-cursor/models",
    });
    expect(resolveMemoryStoreConfig({ ...transformers, XDG_CACHE_HOME: "/xdg/cache" }).embeddings).toMatchObject({ cacheDir: "/xdg/cache/mini-cursor/models" });
    // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    expect(resolveMemoryStoreConfig({ ...transformers, XDG_CACHE_HOME: "rel" }).embeddings).toMatchObject({ cacheDir: "/home/u/.cache/mini-cursor/models" });
  });

  it("takes the model, the cache folder and a Hub mirror from HF_ENDPOINT", () => {
    expect(
      resolveMemoryStoreConfig({
        ...transformers,
        MINI_CURSOR_EMBEDDING_MODEL: "Xenova/bge-small-en-v1.5",
        MINI_CURSOR_EMBEDDING_CACHE: "/models",
        XDG_CACHE_HOME: "/xdg/cache",
        HF_ENDPOINT: "https://hf-mirror.example.com",
      }).embeddings,
    ).toEqual({ kind: "transformers", model: "Xenova/bge-small-en-v1.5", cacheDir: "/models", remoteHost: "https://hf-mirror.example.com" });
  });

  it("refuses a model that is no Hub id and an HF_ENDPOINT that is no URL, in one line each", () => {
    expect(configError({ ...transformers, MINI_CURSOR_EMBEDDING_MODEL: "../etc/passwd" }).message).toBe(
      'MINI_CURSOR_EMBEDDING_MODEL must be a Hugging Face model id such as Xenova/all-MiniLM-L6-v2 for MINI_CURSOR_EMBEDDINGS=transformers, got "../etc/passwd"',
    );
    expect(configError({ ...transformers, HF_ENDPOINT: "hf-mirror.com" }).message).toBe('HF_ENDPOINT must be an http(s) URL, got "hf-mirror.com"');
  });

  it("names it among the allowed values of an unknown kind", () => {
    expect(configError({ ...base, MINI_CURSOR_EMBEDDINGS: "onnx" }).message).toBe(
      'MINI_CURSOR_EMBEDDINGS must be one of local, openai, transformers, got "onnx"',
    );
  });
});
