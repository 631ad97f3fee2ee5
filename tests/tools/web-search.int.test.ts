import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_DEFAULTS, type WebSearchSettings } from "../../src/platform/config/index.js";
import { createWebSearchTool } from "../../src/tools/web-search.js";
import { callTool } from "./helpers.js";
import { startLocalWebServer, type LocalWebServer, type SeenRequest } from "../services/web/local-web-server.js";
import type { ServerResponse } from "node:http";

const KEY = "tvly-SECRET-KEY-123";

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

let server: LocalWebServer;

beforeAll(async () => {
  server = await startLocalWebServer({
    "/search": (req: SeenRequest, res) => {
      if (req.method === "GET") {
        const q = new URL(req.url, "http://x").searchParams;
        if (q.get("format") !== "json") return json(res, 403, { error: "format not allowed" });
        return json(res, 200, {
          query: q.get("q"),
          results: [
            { title: "Vitest <b>fake</b> timers", url: "https://vitest.dev/guide/mocking", content: "Use vi.useFakeTimers()" },
            { title: "No URL here", content: "skipped" },
            { title: "Second", url: "https://example.org/2", content: "two" },
          ],
        });
      }
      if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { detail: "bad key" });
      const body = JSON.parse(req.body) as { query: string; max_results: number };
      // A provider that echoes the key back: it must still never reach the model.
      return json(res, 200, {
        results: Array.from({ length: 5 }, (_, i) => ({
          title: `Tavily ${i + 1} for ${body.query}`,
          url: `https://t.example/${i}`,
          content: i === 0 ? `key was ${KEY}` : "snippet",
        })),
      });
    },
    "/res/v1/web/search": (req, res) => {
      if (req.headers["x-subscription-token"] !== "brave-key") return json(res, 401, { error: "unauthorized" });
      const q = new URL(req.url, "http://x").searchParams;
      return json(res, 200, { web: { results: [{ title: `Brave: ${q.get("q")}`, url: "https://b.example/1", description: `count=${q.get("count")}` }] } });
    },
  });
});
afterAll(async () => {
  await server.close();
});

function searchTool(search: Omit<WebSearchSettings, "maxResults"> & { maxResults?: number }, enabled = true) {
  return createWebSearchTool({ root: "/", web: { ...WEB_DEFAULTS, enabled, search: { maxResults: 8, ...search } } });
}

describe("web_search", () => {
  it("queries a SearXNG instance's JSON API and returns title, URL and snippet", async () => {
    const { content, artifact } = await callTool(searchTool({ provider: "searxng", url: server.origin }), { query: "vitest fake timers" });
    expect(artifact.ok).toBe(true);
    expect(content).toContain('2 web results for "vitest fake timers"');
    expect(content).toContain("1. Vitest fake timers\n   https://vitest.dev/guide/mocking\n   Use vi.useFakeTimers()");
    expect(content).not.toContain("skipped");
    const seen = server.requests.at(-1);
    expect(seen?.url).toBe("/search?q=vitest+fake+timers&format=json");
  });

  it("sends Tavily its key, caps the count, and never shows the key", async () => {
    const { content, artifact } = await callTool(searchTool({ provider: "tavily", url: server.origin, apiKey: KEY, maxResults: 3 }), {
      query: "langgraph",
      count: 10,
    });
    expect(artifact.ok).toBe(true);
    const seen = server.requests.at(-1);
    expect(seen?.method).toBe("POST");
    expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(seen?.body ?? "{}")).toMatchObject({ query: "langgraph", max_results: 3 });
    expect(content).toContain("3 web results");
    expect(content).toContain("key was [redacted]");
    expect(content).not.toContain(KEY);
  });

  it("sends Brave its subscription token and reads web.results", async () => {
    const { content } = await callTool(searchTool({ provider: "brave", url: server.origin, apiKey: "brave-key" }), { query: "zod 4", count: 2 });
    expect(server.requests.at(-1)?.url).toBe("/res/v1/web/search?q=zod+4&count=2");
    expect(content).toContain("1. Brave: zod 4\n   https://b.example/1\n   count=2");
  });

  it("says a wrong key is wrong without showing it", async () => {
    const { content, artifact } = await callTool(searchTool({ provider: "tavily", url: server.origin, apiKey: "tvly-WRONG" }), { query: "x" });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/web search \(tavily\) refused the request \(HTTP 401\): the API key is missing or wrong/);
    expect(content).not.toContain("tvly-WRONG");
  });

  it("fails cleanly when the provider is unreachable or the web is off", async () => {
    const closed = await startLocalWebServer({});
    const origin = closed.origin;
    await closed.close();
    const down = await callTool(searchTool({ provider: "searxng", url: origin }), { query: "x" });
    expect(down.content).toMatch(/^Error: web search \(searxng\) failed: the connection was refused; continue without web search\.$/);
    const off = await callTool(searchTool({ provider: "searxng", url: server.origin }, false), { query: "x" });
    expect(off.content).toMatch(/web search is not configured/);
  });
});
