import type { ModelSettings } from "../platform/config/index.js";

/** Where the OpenAI client sends requests when no base URL is configured. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";

interface Listing {
  data?: { id?: unknown }[];
}

const cache = new Map<string, { at: number; ids: Promise<string[]> }>();
/** A listing is asked again after this long (an editor opens sessions often; models change rarely). */
const CACHE_MS = 5 * 60_000;

/**
 * The models the endpoint lists (`GET {base}/models`, OpenAI's shape), for a person choosing one; [] when it serves
 * no list, refuses the key or does not answer within `timeoutMs`. Never throws. Answers are kept a few minutes per
 * endpoint and key.
 */
export function listEndpointModels(settings: Pick<ModelSettings, "baseUrl" | "apiKey">, timeoutMs = 2_000, now: () => number = Date.now): Promise<string[]> {
  const url = `${(settings.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, "")}/models`;
  const key = `${url}\0${settings.apiKey}`;
  const cached = cache.get(key);
  if (cached && now() - cached.at < CACHE_MS) return cached.ids;
  const ids = fetchIds(url, settings.apiKey, timeoutMs);
  cache.set(key, { at: now(), ids });
  return ids;
}

async function fetchIds(url: string, apiKey: string, timeoutMs: number): Promise<string[]> {
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return [];
    const body = (await res.json()) as Listing;
    return (body.data ?? []).flatMap((m) => (typeof m.id === "string" && m.id.length > 0 ? [m.id] : []));
  } catch {
    return [];
  }
}
