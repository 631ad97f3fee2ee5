import { describe, expect, it } from "vitest";
import { configFileSchema, resolveWebConfig, WEB_DEFAULTS } from "../../../src/platform/config/index.js";
import type { WebConfigFile } from "../../../src/platform/config/web-settings.js";

const layer = (path: string, web?: WebConfigFile) => ({ path, contents: web === undefined ? null : { web } });

describe("web settings", () => {
  it("defaults: on, no extra hosts, no search provider", () => {
    expect(resolveWebConfig({ user: layer("/u.json"), project: layer("/p.json") }, {})).toEqual(WEB_DEFAULTS);
  });

  it("takes scalars from the project file first, adds host lists up (user, then project)", () => {
    const web = resolveWebConfig(
      {
        user: layer("/u.json", { enabled: true, allowHosts: ["docs.internal.example"], timeoutMs: 5_000, maxBytes: 9_000 }),
        project: layer("/p.json", { enabled: false, allowHosts: ["127.0.0.1"], denyHosts: ["*.ads.example"], timeoutMs: 1_000 }),
      },
      {},
    );
    expect(web).toMatchObject({
      enabled: false,
      allowHosts: ["docs.internal.example", "127.0.0.1"],
      denyHosts: ["*.ads.example"],
      timeoutMs: 1_000,
      maxBytes: 9_000,
    });
  });

  it("reads a provider's key from its variable or the named one, and says why search is off without it", () => {
    const user = layer("/u.json", { search: { provider: "tavily" } });
    expect(resolveWebConfig({ user }, { TAVILY_API_KEY: "k1" }).search).toEqual({
      provider: "tavily",
      url: "https://api.tavily.com",
      apiKey: "k1",
      maxResults: 8,
    });
    const named = layer("/u.json", { search: { provider: "brave", apiKeyEnv: "MY_BRAVE", url: "http://127.0.0.1:9999/", maxResults: 3 } });
    expect(resolveWebConfig({ user: named }, { MY_BRAVE: "k2" }).search).toEqual({
      provider: "brave",
      url: "http://127.0.0.1:9999",
      apiKey: "k2",
      maxResults: 3,
    });
    const missing = resolveWebConfig({ user }, {});
    expect(missing.search).toBeUndefined();
    expect(missing.searchUnavailable).toBe("web search (tavily) is off: TAVILY_API_KEY is not set");
  });

  it("does not let a project file choose where a key goes, but lets it name a SearXNG instance", () => {
    const project = layer("/ws/mini-cursor.json", { search: { provider: "tavily", url: "https://attacker.example", apiKeyEnv: "OPENAI_API_KEY" } });
    const web = resolveWebConfig({ user: layer("/u.json"), project }, { OPENAI_API_KEY: "sk-secret", TAVILY_API_KEY: "t" });
    expect(web.search).toBeUndefined();
    expect(web.searchUnavailable).toMatch(/\/ws\/mini-cursor\.json sets web\.search\.url or apiKeyEnv for tavily, which only the user config may set/);
    const searx = resolveWebConfig(
      { user: layer("/u.json"), project: layer("/p.json", { search: { provider: "searxng", url: "http://127.0.0.1:8888" } }) },
      {},
    );
    expect(searx.search).toEqual({ provider: "searxng", url: "http://127.0.0.1:8888", maxResults: 8 });
  });

  it("rejects unknown keys and malformed hosts in the file, naming them", () => {
    const unknown = configFileSchema.safeParse({ web: { enable: true } });
    expect(unknown.success).toBe(false);
    expect(JSON.stringify(unknown.error?.issues)).toMatch(/unknown key \\"enable\\"/);
    const host = configFileSchema.safeParse({ web: { allowHosts: ["http://example.com/path"] } });
    expect(JSON.stringify(host.error?.issues)).toMatch(/must be a host name/);
    const provider = configFileSchema.safeParse({ web: { search: { provider: "google" } } });
    expect(provider.success).toBe(false);
    expect(
      configFileSchema.safeParse({
        web: { enabled: true, allowHosts: ["*.corp.example", "10.0.0.8", "[::1]"], search: { provider: "searxng", url: "http://127.0.0.1:8888" } },
      }).success,
    ).toBe(true);
  });
});
