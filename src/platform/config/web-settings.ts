import { z } from "zod";
import { envValue } from "./env.js";

/**
 * The `web` key of a config file (fetch_url and web_search) and its resolver. The resolver takes the two file layers
 * structurally, so this file does not import sources.ts (which imports the schema that imports this: no cycle).
 */

export const WEB_SEARCH_PROVIDERS = ["searxng", "tavily", "brave"] as const;
export type WebSearchProvider = (typeof WEB_SEARCH_PROVIDERS)[number];

export const DEFAULT_WEB_TIMEOUT_MS = 20_000;
export const DEFAULT_WEB_MAX_BYTES = 2_000_000;
export const DEFAULT_WEB_SEARCH_RESULTS = 8;

/** Where the keyed providers answer, and the variable their key is read from unless `apiKeyEnv` names another. */
const PROVIDER_DEFAULTS: Record<Exclude<WebSearchProvider, "searxng">, { url: string; keyEnv: string }> = {
  tavily: { url: "https://api.tavily.com", keyEnv: "TAVILY_API_KEY" },
  brave: { url: "https://api.search.brave.com", keyEnv: "BRAVE_API_KEY" },
};

/** `example.com`, `*.example.com` (any subdomain), an IPv4 address or an IPv6 address (brackets optional). */
const HOST_PATTERN = /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$|^\[?[0-9a-f:.]+\]?$/i;
const hostPatternSchema = z.string().regex(HOST_PATTERN, 'must be a host name such as "docs.example.com", "*.example.com" or an IP address');

const httpUrlSchema = z.string().refine((value) => {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http(s) URL");

const WEB_KEYS = ["enabled", "allowHosts", "denyHosts", "timeoutMs", "maxBytes", "search"] as const;
const SEARCH_KEYS = ["provider", "url", "apiKeyEnv", "maxResults"] as const;

function unknownKeys(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys" ? `unknown key ${(issue.keys ?? []).map((k) => `"${k}"`).join(", ")} (known keys: ${known.join(", ")})` : undefined,
  };
}

export const webConfigSchema = z.strictObject(
  {
    /** false turns fetch_url and web_search off. */
    enabled: z.boolean().optional(),
    /** Hosts fetch_url may reach even on loopback or private addresses (exact names, `*.domain`, IPs). */
    allowHosts: z.array(hostPatternSchema).optional(),
    /** Hosts fetch_url never reaches, whatever they resolve to; beats allowHosts. */
    denyHosts: z.array(hostPatternSchema).optional(),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    maxBytes: z.number().int().min(1_000).max(100_000_000).optional(),
    search: z
      .strictObject(
        {
          provider: z.enum(WEB_SEARCH_PROVIDERS),
          url: httpUrlSchema.optional(),
          apiKeyEnv: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
            .optional(),
          maxResults: z.number().int().min(1).max(20).optional(),
        },
        unknownKeys(SEARCH_KEYS),
      )
      .optional(),
  },
  unknownKeys(WEB_KEYS),
);
export type WebConfigFile = z.infer<typeof webConfigSchema>;

/** A configured search provider, its key read from the environment (never shown, logged or sent to the model). */
export interface WebSearchSettings {
  provider: WebSearchProvider;
  /** Base URL without a trailing slash. */
  url: string;
  apiKey?: string;
  maxResults: number;
}

export interface WebSettings {
  enabled: boolean;
  /** User patterns, then project patterns. */
  allowHosts: string[];
  denyHosts: string[];
  timeoutMs: number;
  maxBytes: number;
  /** Absent: web_search is not offered. */
  search?: WebSearchSettings;
  /** Why a configured search provider is not usable (e.g. its key is not set): said once at the session's start. */
  searchUnavailable?: string;
}

interface WebLayer {
  path: string;
  contents: { web?: WebConfigFile } | null;
}

export const WEB_DEFAULTS: WebSettings = { enabled: true, allowHosts: [], denyHosts: [], timeoutMs: DEFAULT_WEB_TIMEOUT_MS, maxBytes: DEFAULT_WEB_MAX_BYTES };

function searchSettings(
  layer: { path: string; web: WebConfigFile },
  isProject: boolean,
  env: NodeJS.ProcessEnv,
): Pick<WebSettings, "search" | "searchUnavailable"> {
  const search = layer.web.search;
  if (!search) return {};
  const maxResults = search.maxResults ?? DEFAULT_WEB_SEARCH_RESULTS;
  if (search.provider === "searxng") {
    if (!search.url)
      return { searchUnavailable: `web search is off: ${layer.path} sets web.search.provider "searxng" without web.search.url (the instance's address)` };
    return { search: { provider: "searxng", url: search.url.replace(/\/+$/, ""), maxResults } };
  }
  // A committed project file must not be able to send the user's key somewhere else, or pick which secret is sent.
  if (isProject && (search.url !== undefined || search.apiKeyEnv !== undefined)) {
    return {
      searchUnavailable: `web search is off: ${layer.path} sets web.search.url or apiKeyEnv for ${search.provider}, which only the user config may set (they decide where your API key is sent)`,
    };
  }
  const defaults = PROVIDER_DEFAULTS[search.provider];
  const keyEnv = search.apiKeyEnv ?? defaults.keyEnv;
  const apiKey = envValue(env, keyEnv);
  if (!apiKey) return { searchUnavailable: `web search (${search.provider}) is off: ${keyEnv} is not set` };
  return { search: { provider: search.provider, url: (search.url ?? defaults.url).replace(/\/+$/, ""), apiKey, maxResults } };
}

/**
 * Web settings: scalar keys from the project file, else the user file, else defaults; host lists add up (user, then
 * project). Never throws (the files were validated when loaded): a search provider that cannot be used is a reason.
 */
export function resolveWebConfig(files: { user: WebLayer; project?: WebLayer }, env: NodeJS.ProcessEnv): WebSettings {
  const layers = [files.project, files.user].flatMap((l) => (l?.contents?.web ? [{ path: l.path, web: l.contents.web, isProject: l === files.project }] : []));
  const first = <K extends "enabled" | "timeoutMs" | "maxBytes">(key: K) => layers.find((l) => l.web[key] !== undefined)?.web[key];
  const ordered = [...layers].reverse();
  const searchLayer = layers.find((l) => l.web.search !== undefined);
  return {
    enabled: first("enabled") ?? WEB_DEFAULTS.enabled,
    allowHosts: ordered.flatMap((l) => l.web.allowHosts ?? []),
    denyHosts: ordered.flatMap((l) => l.web.denyHosts ?? []),
    timeoutMs: first("timeoutMs") ?? WEB_DEFAULTS.timeoutMs,
    maxBytes: first("maxBytes") ?? WEB_DEFAULTS.maxBytes,
    ...(searchLayer ? searchSettings(searchLayer, searchLayer.isProject, env) : {}),
  };
}
