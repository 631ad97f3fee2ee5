import { z } from "zod";
import type { ModelSettings } from "../../../platform/config/index.js";
import { errorMessage } from "../../../platform/error-info.js";

/** Where the OpenAI client sends requests when no base URL is configured. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The whole endpoint check (listing, then any one-token requests) shares this time box. */
export const ENDPOINT_PROBE_MS = 5_000;

export interface ModelAvailability {
  name: string;
  /** Listed by `GET /models`, or answered a one-token request when not listed or when there is no listing. */
  available: boolean;
  how: "listed" | "answered" | "refused";
  /** Why it is not available (the endpoint's own words, shortened). */
  error?: string;
}

export interface EndpointReport {
  ok: boolean;
  url: string;
  /** One line: what answered, or why the main job cannot reach its model. */
  detail: string;
  /** Whether the endpoint serves a model list (false: it answered 404, so one-token requests decided). */
  listing?: boolean;
  models: ModelAvailability[];
}

const listingSchema = z.object({ data: z.array(z.object({ id: z.string() })) });
const errorSchema = z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) });

function shorten(text: string, max = 160): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The error body's message (OpenAI and most compatible servers), else the raw body, on one short line. */
function errorText(body: string): string {
  try {
    const parsed = errorSchema.safeParse(JSON.parse(body));
    if (parsed.success) return shorten(typeof parsed.data.error === "string" ? parsed.data.error : parsed.data.error.message);
  } catch {
    // Not JSON: the body itself says what happened.
  }
  return shorten(body);
}

/** A failed fetch as words: the time box, a refused connection, a name that does not resolve. */
function networkText(url: string, error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `${url} did not answer within ${ENDPOINT_PROBE_MS / 1000} s`;
  }
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  const code = cause?.code;
  if (code === "ECONNREFUSED") return `nothing answers at ${url} (connection refused)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot resolve the host of ${url} (${code})`;
  const reason = cause?.message ?? errorMessage(error);
  return `cannot reach ${url}: ${shorten(reason)}`;
}

async function request(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
}

function refusedKey(url: string, res: { status: number; text: string }): string {
  return `${url} refused the API key (HTTP ${res.status}: ${errorText(res.text)}); check OPENAI_API_KEY`;
}

/** Ollama lists `llama3.2:latest` for a model named `llama3.2`. */
function listed(name: string, ids: readonly string[]): boolean {
  return ids.includes(name) || ids.includes(`${name}:latest`) || (name.endsWith(":latest") && ids.includes(name.slice(0, -":latest".length)));
}

/**
 * Checks that the endpoint answers with the configured key and serves the configured models: `GET {base}/models`;
 * a model it does not list (or every model, when the listing is not served) gets a one-token chat completion,
 * which decides. Nothing is retried: the point is to say quickly what a session would meet.
 */
export async function probeEndpoint(settings: ModelSettings): Promise<EndpointReport> {
  const url = (settings.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  const names = [...new Set([settings.model, ...Object.values(settings.roleModels).filter((m): m is string => m !== undefined)])];
  const signal = AbortSignal.timeout(ENDPOINT_PROBE_MS);
  const headers = { authorization: `Bearer ${settings.apiKey}`, "content-type": "application/json" };
  const fail = (detail: string, listing?: boolean): EndpointReport => ({ ok: false, url, detail, ...(listing === undefined ? {} : { listing }), models: [] });

  let ids: string[] | null;
  try {
    const res = await request(`${url}/models`, { headers, signal });
    if (res.status === 401 || res.status === 403) return fail(refusedKey(url, res));
    if (res.status === 404) ids = null;
    else if (res.status < 200 || res.status >= 300) return fail(`${url}/models answered HTTP ${res.status}: ${errorText(res.text)}`);
    else {
      const parsed = listingSchema.safeParse(JSON.parse(res.text));
      ids = parsed.success ? parsed.data.data.map((m) => m.id) : null;
    }
  } catch (error) {
    if (error instanceof SyntaxError) ids = null;
    else return fail(networkText(url, error));
  }

  const models: ModelAvailability[] = [];
  for (const name of names) {
    if (ids && listed(name, ids)) {
      models.push({ name, available: true, how: "listed" });
      continue;
    }
    try {
      const body = JSON.stringify({ model: name, messages: [{ role: "user", content: "Reply with OK." }], max_tokens: 1 });
      const res = await request(`${url}/chat/completions`, { method: "POST", headers, body, signal });
      if (res.status === 401 || res.status === 403) return fail(refusedKey(url, res), ids !== null);
      const ok = res.status >= 200 && res.status < 300;
      models.push(
        ok ? { name, available: true, how: "answered" } : { name, available: false, how: "refused", error: `HTTP ${res.status}: ${errorText(res.text)}` },
      );
    } catch (error) {
      return fail(networkText(url, error), ids !== null);
    }
  }
  const missing = models.filter((m) => !m.available);
  const listing = ids !== null;
  if (missing.length > 0) {
    const listedText = ids ? `; it lists ${ids.length === 0 ? "no models" : shorten(ids.join(", "), 120)}` : "";
    const details = missing.map((m) => `${m.name} (${m.error ?? "refused"})`).join(", ");
    return { ok: false, url, listing, models, detail: `${url} answers but cannot serve ${details}${listedText}` };
  }
  const how = models.every((m) => m.how === "listed")
    ? "listed"
    : listing
      ? "available (a one-token request answered)"
      : "answered a one-token request (no model list served)";
  return { ok: true, url, listing, models, detail: `${url} answers; ${names.join(", ")} ${how}` };
}
