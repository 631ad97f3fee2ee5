import type { WebSearchSettings } from "../../platform/config/web-settings.js";

/**
 * The request each search provider expects and how its answer becomes results. The base URL is configurable (a
 * SearXNG instance; tests point Tavily and Brave at local servers).
 */

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface ProviderRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export function providerRequest(search: WebSearchSettings, query: string, count: number): ProviderRequest {
  const accept = { accept: "application/json" };
  switch (search.provider) {
    case "searxng": {
      const url = new URL(`${search.url}/search`);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      return { url, method: "GET", headers: accept };
    }
    case "tavily":
      return {
        url: new URL(`${search.url}/search`),
        method: "POST",
        headers: { ...accept, "content-type": "application/json", authorization: `Bearer ${search.apiKey ?? ""}` },
        body: JSON.stringify({ query, max_results: count, search_depth: "basic" }),
      };
    case "brave": {
      const url = new URL(`${search.url}/res/v1/web/search`);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(count));
      return { url, method: "GET", headers: { ...accept, "x-subscription-token": search.apiKey ?? "" } };
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string"
    ? value
        .replace(/<[^>]+>/g, "")
        .replace(/\s+/g, " ")
        .trim()
    : "";
}

/** The results of a provider's JSON answer (title, URL, snippet); entries without a URL are skipped. */
export function parseResults(provider: WebSearchSettings["provider"], answer: unknown): SearchResult[] | null {
  if (!isRecord(answer)) return null;
  const list = provider === "brave" ? (isRecord(answer.web) ? answer.web.results : []) : answer.results;
  if (!Array.isArray(list)) return null;
  return list.filter(isRecord).flatMap((r) => {
    const url = text(r.url);
    if (!url) return [];
    return [{ title: text(r.title) || url, url, snippet: text(provider === "brave" ? r.description : r.content) }];
  });
}
