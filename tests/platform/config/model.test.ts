import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_OLLAMA_URL,
  DEFAULT_OPENAI_MODEL,
  MODEL_ROLES,
  resolveModelConfig,
  type OllamaProbe,
} from "../../../src/platform/config/index.js";
import { modelFor } from "../../../src/models/config.js";

/** A probe that records the hosts it was asked about and answers with a fixed value. */
function probe(answer: string[] | null): OllamaProbe & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (baseUrl: string): Promise<string[] | null> => {
    calls.push(baseUrl);
    return answer;
  };
  return Object.assign(fn, { calls });
}

async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveModelConfig", () => {
  it("uses OpenAI with the default model when only OPENAI_API_KEY is set, without probing Ollama", async () => {
    const p = probe(["llama3"]);
    const s = await resolveModelConfig({}, { OPENAI_API_KEY: "sk-test" }, p);
    expect(s.baseUrl).toBeUndefined();
    expect(s.apiKey).toBe("sk-test");
    expect(s.model).toBe(DEFAULT_OPENAI_MODEL);
    expect(s.source).toBe("OpenAI");
    expect(s.origin).toBe("OpenAI, key from OPENAI_API_KEY");
    expect(s.roleModels).toEqual({});
    expect(s.timeoutMs).toBe(120_000);
    expect(s.maxRetries).toBe(2);
    expect(p.calls).toEqual([]);
  });

  it("honours MINI_CURSOR_MODEL with an OpenAI key, and --model over the env", async () => {
    const env = { OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "gpt-4o" };
    expect((await resolveModelConfig({}, env, probe(null))).model).toBe("gpt-4o");
    expect((await resolveModelConfig({ model: "o3" }, env, probe(null))).model).toBe("o3");
  });

  it("uses the given endpoint and model; the key defaults to not-needed", async () => {
    const p = probe(["llama3"]);
    const s = await resolveModelConfig({}, { OPENAI_BASE_URL: "http://127.0.0.1:8000/v1", MINI_CURSOR_MODEL: "qwen2.5-coder" }, p);
    expect(s.baseUrl).toBe("http://127.0.0.1:8000/v1");
    expect(s.model).toBe("qwen2.5-coder");
    expect(s.apiKey).toBe("not-needed");
    expect(s.source).toBe("http://127.0.0.1:8000/v1");
    // doctor prints the URL and this: the setting that chose it, not the URL again.
    expect(s.origin).toBe("endpoint from OPENAI_BASE_URL");
    expect(p.calls).toEqual([]);
  });

  it("names the flag that chose the endpoint or key", async () => {
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:8000/v1", MINI_CURSOR_MODEL: "m" };
    expect((await resolveModelConfig({ baseUrl: "http://127.0.0.1:9000/v1" }, env, probe(null))).origin).toBe("endpoint from --base-url");
    expect((await resolveModelConfig({ apiKey: "sk-flag" }, {}, probe(null))).origin).toBe("OpenAI, key from --api-key");
    expect((await resolveModelConfig({ baseUrl: "http://127.0.0.1:9000/v1", model: "m" }, {}, probe(null), "configurable")).origin).toBe(
      "endpoint from configurable.baseUrl",
    );
  });

  it("keeps a given key for a custom endpoint, and flags win over the env", async () => {
    const s = await resolveModelConfig(
      { baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat" },
      { OPENAI_BASE_URL: "http://ignored/v1", MINI_CURSOR_MODEL: "ignored", OPENAI_API_KEY: "ds-key" },
      probe(null),
    );
    expect(s.baseUrl).toBe("https://api.deepseek.com/v1");
    expect(s.model).toBe("deepseek-chat");
    expect(s.apiKey).toBe("ds-key");
  });

  it("rejects a base URL without a model, naming MINI_CURSOR_MODEL", async () => {
    const err = await configError(resolveModelConfig({}, { OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" }, probe(["x"])));
    expect(err.message).toContain("MINI_CURSOR_MODEL");
    expect(err.message).toContain("http://127.0.0.1:8000/v1");
    const viaFlag = await configError(resolveModelConfig({ baseUrl: "http://h/v1" }, { OPENAI_API_KEY: "k" }, probe(null)));
    expect(viaFlag.message).toContain("MINI_CURSOR_MODEL");
  });

  it("reads per-role model overrides and modelFor falls back to the main model", async () => {
    const s = await resolveModelConfig(
      {},
      {
        OPENAI_API_KEY: "sk-test",
        MINI_CURSOR_MODEL: "main-model",
        MINI_CURSOR_PLANNER_MODEL: "big-planner",
        MINI_CURSOR_REVIEWER_MODEL: "strict-reviewer",
        MINI_CURSOR_CODER_MODEL: "",
      },
      probe(null),
    );
    expect(s.roleModels).toEqual({ planner: "big-planner", reviewer: "strict-reviewer" });
    expect(modelFor(s, "planner")).toBe("big-planner");
    expect(modelFor(s, "reviewer")).toBe("strict-reviewer");
    expect(modelFor(s, "coder")).toBe("main-model");
    expect(modelFor(s, "researcher")).toBe("main-model");
  });

  it("reads an override for every role", async () => {
    const env: NodeJS.ProcessEnv = { OPENAI_API_KEY: "k" };
    for (const role of MODEL_ROLES) env[`MINI_CURSOR_${role.toUpperCase()}_MODEL`] = `${role}-m`;
    const s = await resolveModelConfig({}, env, probe(null));
    for (const role of MODEL_ROLES) expect(modelFor(s, role)).toBe(`${role}-m`);
  });

  it("falls back to a local Ollama at the default address with its first model", async () => {
    const p = probe(["qwen2.5-coder:7b", "llama3:8b"]);
    const s = await resolveModelConfig({}, {}, p);
    expect(p.calls).toEqual([DEFAULT_OLLAMA_URL]);
    expect(s.baseUrl).toBe(`${DEFAULT_OLLAMA_URL}/v1`);
    expect(s.model).toBe("qwen2.5-coder:7b");
    expect(s.apiKey.length).toBeGreaterThan(0);
    expect(s.source).toContain("Ollama");
    expect(s.source).toContain(DEFAULT_OLLAMA_URL);
    expect(s.origin).toBe("a local Ollama found at its default address, as no endpoint is configured");
    const host = await resolveModelConfig({}, { OLLAMA_HOST: "127.0.0.1:11500" }, probe(["m"]));
    expect(host.origin).toBe("a local Ollama found at OLLAMA_HOST, as no endpoint is configured");
  });

  it("uses a named model with a found Ollama", async () => {
    const s = await resolveModelConfig({}, { MINI_CURSOR_MODEL: "llama3:8b" }, probe(["qwen2.5-coder:7b", "llama3:8b"]));
    expect(s.model).toBe("llama3:8b");
  });

  it("errors when Ollama answers with no models", async () => {
    const err = await configError(resolveModelConfig({}, {}, probe([])));
    expect(err.message).toContain("ollama pull");
  });

  it.each([
    ["http://10.0.0.5:11434", "http://10.0.0.5:11434"],
    ["http://10.0.0.5:11434/", "http://10.0.0.5:11434"],
    ["10.0.0.5:11434", "http://10.0.0.5:11434"],
    ["https://ollama.example.com", "https://ollama.example.com"],
  ])("respects OLLAMA_HOST=%s", async (host, expected) => {
    const p = probe(["m"]);
    const s = await resolveModelConfig({}, { OLLAMA_HOST: host }, p);
    expect(p.calls).toEqual([expected]);
    expect(s.baseUrl).toBe(`${expected}/v1`);
  });

  it("explains every option when nothing is configured and Ollama does not answer", async () => {
    const err = await configError(resolveModelConfig({}, {}, probe(null)));
    for (const word of ["OpenAI", "DeepSeek", "Ollama", "vLLM", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MINI_CURSOR_MODEL"]) {
      expect(err.message).toContain(word);
    }
  });

  it("reads timeout and retries from the env", async () => {
    const s = await resolveModelConfig({}, { OPENAI_API_KEY: "k", MINI_CURSOR_MODEL_TIMEOUT_MS: "5000", MINI_CURSOR_MODEL_RETRIES: "0" }, probe(null));
    expect(s.timeoutMs).toBe(5000);
    expect(s.maxRetries).toBe(0);
  });

  it.each(["abc", "-1", "Infinity", "12ms", "0", "0.5", "1e3"])("rejects MINI_CURSOR_MODEL_TIMEOUT_MS=%s", async (value) => {
    const err = await configError(resolveModelConfig({}, { OPENAI_API_KEY: "k", MINI_CURSOR_MODEL_TIMEOUT_MS: value }, probe(null)));
    expect(err.message).toContain("MINI_CURSOR_MODEL_TIMEOUT_MS");
    expect(err.message).toContain(value);
  });

  it("rejects an invalid MINI_CURSOR_MODEL_RETRIES", async () => {
    const err = await configError(resolveModelConfig({}, { OPENAI_API_KEY: "k", MINI_CURSOR_MODEL_RETRIES: "lots" }, probe(null)));
    expect(err.message).toContain("MINI_CURSOR_MODEL_RETRIES");
  });

  it("reads MINI_CURSOR_PROMPT_CACHE_KEY (on, off; auto or unset leaves it to the endpoint) and rejects anything else", async () => {
    const key = async (value?: string) =>
      (await resolveModelConfig({}, { OPENAI_API_KEY: "k", ...(value === undefined ? {} : { MINI_CURSOR_PROMPT_CACHE_KEY: value }) }, probe(null)))
        .promptCacheKey;
    expect(await key("on")).toBe("on");
    expect(await key("off")).toBe("off");
    expect(await key("auto")).toBeUndefined();
    expect(await key()).toBeUndefined();
    const err = await configError(resolveModelConfig({}, { OPENAI_API_KEY: "k", MINI_CURSOR_PROMPT_CACHE_KEY: "yes" }, probe(null)));
    expect(err.message).toBe('MINI_CURSOR_PROMPT_CACHE_KEY must be on, off or auto (got "yes").');
  });

  it("names the flag, not the variable, when the base URL came from --base-url", async () => {
    const err = await configError(resolveModelConfig({ baseUrl: "http://h/v1" }, { OPENAI_BASE_URL: "http://other/v1" }, probe(null)));
    expect(err.message).toMatch(/^--base-url is set \(http:\/\/h\/v1\)/);
    const fromEnv = await configError(resolveModelConfig({}, { OPENAI_BASE_URL: "http://h/v1" }, probe(null)));
    expect(fromEnv.message).toMatch(/^OPENAI_BASE_URL is set/);
    const fromRun = await configError(resolveModelConfig({ baseUrl: "http://h/v1" }, {}, probe(null), "configurable"));
    expect(fromRun.message).toMatch(/^configurable\.baseUrl is set .*configurable\.model/);
  });

  it("rejects a base URL that is not http(s), naming where it came from", async () => {
    expect((await configError(resolveModelConfig({}, { OPENAI_BASE_URL: "localhost:8000", MINI_CURSOR_MODEL: "m" }, probe(null)))).message).toBe(
      'OPENAI_BASE_URL must be an http(s) URL, got "localhost:8000"',
    );
    expect((await configError(resolveModelConfig({ baseUrl: "ftp://h", model: "m" }, {}, probe(null)))).message).toContain("--base-url must be an http(s) URL");
  });

  it("takes the key and per-role models from flags before the environment", async () => {
    const s = await resolveModelConfig(
      { apiKey: "flag-key", coderModel: "flag-coder" },
      { OPENAI_API_KEY: "env-key", MINI_CURSOR_CODER_MODEL: "env-coder", MINI_CURSOR_REVIEWER_MODEL: "env-reviewer" },
      probe(null),
    );
    expect(s.apiKey).toBe("flag-key");
    expect(s.roleModels).toEqual({ coder: "flag-coder", reviewer: "env-reviewer" });
  });

  it("treats empty or blank variables as unset and trims the others", async () => {
    const s = await resolveModelConfig({}, { OPENAI_API_KEY: " sk-test\n", MINI_CURSOR_MODEL: "  ", OPENAI_BASE_URL: "" }, probe(null));
    expect(s).toMatchObject({ apiKey: "sk-test", model: DEFAULT_OPENAI_MODEL, source: "OpenAI" });
  });

  it("rejects an empty flag instead of silently using a default", async () => {
    expect((await configError(resolveModelConfig({ model: "" }, { OPENAI_API_KEY: "k" }, probe(null)))).message).toBe("--model is empty");
  });
});
