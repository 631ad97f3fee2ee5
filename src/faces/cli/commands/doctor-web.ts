import { loadConfigFiles, resolveWebConfig } from "../../../platform/config/index.js";
import { errorMessage } from "../../../platform/error-info.js";

/** What fetch_url and web_search would do in this workspace; never a failure, never the API key. */
export interface WebReport {
  enabled: boolean;
  allowHosts: string[];
  denyHosts: string[];
  /** The search provider a session would use (its key is only said to be set). */
  search?: { provider: string; url: string; keySet: boolean };
  /** Why web_search is off although a provider is configured, or why the settings could not be read. */
  note?: string;
}

export function checkWeb(workspace: string, env: NodeJS.ProcessEnv): WebReport {
  try {
    const web = resolveWebConfig(loadConfigFiles(env, workspace), env);
    const search = web.search ? { provider: web.search.provider, url: web.search.url, keySet: web.search.apiKey !== undefined } : undefined;
    return {
      enabled: web.enabled,
      allowHosts: web.allowHosts,
      denyHosts: web.denyHosts,
      ...(search ? { search } : {}),
      ...(web.searchUnavailable ? { note: web.searchUnavailable } : {}),
    };
  } catch (error) {
    // A bad config file is reported under Config already.
    return { enabled: false, allowHosts: [], denyHosts: [], note: `not read (${errorMessage(error)})` };
  }
}

export function renderWeb(r: WebReport): string {
  if (!r.enabled) return `off   ${r.note ?? "web.enabled is false: fetch_url and web_search are not offered"}`;
  const hosts = [
    r.allowHosts.length > 0 ? `allowHosts ${r.allowHosts.join(", ")}` : "",
    r.denyHosts.length > 0 ? `denyHosts ${r.denyHosts.join(", ")}` : "",
  ].filter(Boolean);
  const search = r.search
    ? `web_search via ${r.search.provider} at ${r.search.url}${r.search.provider === "searxng" ? "" : " (key set)"}`
    : `no web_search${r.note ? ` (${r.note})` : " (no web.search provider)"}`;
  return `${r.note ? "warn" : "ok  "}  fetch_url on (public addresses${hosts.length > 0 ? `; ${hosts.join("; ")}` : ""}); ${search}`;
}
