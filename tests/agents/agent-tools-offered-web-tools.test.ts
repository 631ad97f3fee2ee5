import { describe, expect, it } from "vitest";
import { researcherSpec } from "../../src/agents/researcher/index.js";
import { offeredTools } from "../../src/agents/agent-tools.js";
import { WEB_DEFAULTS } from "../../src/platform/config/index.js";

const searxng = { provider: "searxng" as const, url: "http://127.0.0.1:8888", maxResults: 8 };
const web = (names: string[]) => names.filter((n) => n === "fetch_url" || n === "web_search");

describe("offered web tools", () => {
  it("offers fetch_url while the web is on, web_search only with a provider, neither when off or unwired", () => {
    const auto = { approval: "auto" as const };
    expect(web(offeredTools(researcherSpec, auto, { memory: false, web: WEB_DEFAULTS }))).toEqual(["fetch_url"]);
    expect(web(offeredTools(researcherSpec, auto, { memory: false, web: { ...WEB_DEFAULTS, search: searxng } }))).toEqual(["fetch_url", "web_search"]);
    expect(web(offeredTools(researcherSpec, auto, { memory: false, web: { ...WEB_DEFAULTS, enabled: false, search: searxng } }))).toEqual([]);
    expect(web(offeredTools(researcherSpec, auto, { memory: false }))).toEqual([]);
  });

  it("keeps both in read-only mode: they change nothing", () => {
    expect(web(offeredTools(researcherSpec, { approval: "read-only" }, { memory: false, web: { ...WEB_DEFAULTS, search: searxng } }))).toEqual([
      "fetch_url",
      "web_search",
    ]);
  });
});
