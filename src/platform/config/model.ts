import { MODEL_ROLES, type ModelRole } from "../../core/index.js";
import { ConfigError, envValue } from "./sources.js";
import { flagValue, httpUrl, wholeNumber, type ConfigFlags, type FlagSource, type TextFlag } from "./values.js";

export { MODEL_ROLES, type ModelRole };

/** Everything needed to talk to one OpenAI-compatible chat-completions endpoint. */
export interface ModelSettings {
  baseUrl?: string;
  apiKey: string;
  model: string;
  /** Per-role model names that override `model`. */
  roleModels: Partial<Record<ModelRole, string>>;
  /** Per attempt; a stalled request is aborted after this. */
  timeoutMs: number;
  maxRetries: number;
  /**
   * Whether requests carry OpenAI's `prompt_cache_key` (MINI_CURSOR_PROMPT_CACHE_KEY): unset is "auto", sent except to
   * an endpoint on this machine, which caches prefixes by itself (vLLM, llama.cpp) and may log the unknown field.
   */
  promptCacheKey?: "on" | "off";
  /** Where the settings came from, said to the user once. */
  source: string;
  /**
   * What chose the endpoint, in words that name the flag or variable to look at: "endpoint from OPENAI_BASE_URL",
   * "OpenAI, key from --api-key", or how a local Ollama was found (`doctor` prints it). Unset for a replay.
   */
  origin?: string;
}

/** Asks a local Ollama for its models; null when nothing answers (src/models/ollama-probe.ts). */
export type OllamaProbe = (baseUrl: string) => Promise<string[] | null>;

export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
export const DEFAULT_MODEL_RETRIES = 2;

export const MODEL_HELP = [
  "No model endpoint is configured. Set one of:",
  "  OpenAI:   OPENAI_API_KEY=sk-...   (optional MINI_CURSOR_MODEL, default gpt-4.1-mini)",
  "  DeepSeek: OPENAI_BASE_URL=https://api.deepseek.com/v1 OPENAI_API_KEY=... MINI_CURSOR_MODEL=deepseek-chat",
  "  Ollama:   start `ollama serve` (found automatically at 127.0.0.1:11434) or OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MINI_CURSOR_MODEL=qwen2.5-coder",
  "  vLLM:     OPENAI_BASE_URL=http://127.0.0.1:8000/v1 MINI_CURSOR_MODEL=<served model name>",
].join("\n");

const ROLE_FLAGS = {
  planner: "plannerModel",
  researcher: "researcherModel",
  coder: "coderModel",
  reviewer: "reviewerModel",
} as const satisfies Record<ModelRole, TextFlag>;

/** A flag or variable value with the name of where it came from, for error messages. */
interface Sourced {
  value: string;
  from: string;
}

function pick(flags: ConfigFlags, key: TextFlag, flagSource: FlagSource, env: NodeJS.ProcessEnv, variable: string): Sourced | undefined {
  const flag = flagValue(flags, key, flagSource);
  if (flag) return flag;
  const value = envValue(env, variable);
  return value === undefined ? undefined : { value, from: variable };
}

function normalizeOllamaHost(host: string): string {
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  return withScheme.replace(/\/+$/, "");
}

/**
 * The model endpoint: flags, then the environment, then defaults. Without an explicit endpoint or key, a local
 * Ollama (`OLLAMA_HOST`, default 127.0.0.1:11434) is asked through `probe` and used when it answers; otherwise a
 * ConfigError explains how to configure one. Model settings have no config-file form.
 */
export async function resolveModelConfig(
  flags: ConfigFlags,
  env: NodeJS.ProcessEnv,
  probe: OllamaProbe,
  flagSource: FlagSource = "cli",
): Promise<ModelSettings> {
  const url = ollamaUrl(env);
  const ollama = needsOllama(flags, env, flagSource) ? { url, models: await probe(url) } : null;
  return modelSettingsFrom(flags, env, ollama, flagSource);
}

/** Where a local Ollama is asked (`OLLAMA_HOST`, default 127.0.0.1:11434). */
export function ollamaUrl(env: NodeJS.ProcessEnv): string {
  const host = envValue(env, "OLLAMA_HOST");
  return host ? normalizeOllamaHost(host) : DEFAULT_OLLAMA_URL;
}

/** No endpoint and no key: only a local Ollama can serve the session. */
export function needsOllama(flags: ConfigFlags, env: NodeJS.ProcessEnv, flagSource: FlagSource = "cli"): boolean {
  return !pick(flags, "baseUrl", flagSource, env, "OPENAI_BASE_URL") && !pick(flags, "apiKey", flagSource, env, "OPENAI_API_KEY");
}

/** What a probe of the local Ollama found: its models, or null when nothing answered. */
export interface OllamaFound {
  url: string;
  models: string[] | null;
}

/**
 * The same resolution without the network: `ollama` is what a probe found earlier (Studio asks once when it starts,
 * then resolves each run's settings synchronously).
 */
export function modelSettingsFrom(flags: ConfigFlags, env: NodeJS.ProcessEnv, ollama: OllamaFound | null, flagSource: FlagSource = "cli"): ModelSettings {
  const timeoutMs = wholeNumber(envValue(env, "MINI_CURSOR_MODEL_TIMEOUT_MS"), "MINI_CURSOR_MODEL_TIMEOUT_MS", 1) ?? DEFAULT_MODEL_TIMEOUT_MS;
  const maxRetries = wholeNumber(envValue(env, "MINI_CURSOR_MODEL_RETRIES"), "MINI_CURSOR_MODEL_RETRIES", 0) ?? DEFAULT_MODEL_RETRIES;
  const roleModels: Partial<Record<ModelRole, string>> = {};
  for (const role of MODEL_ROLES) {
    const named = pick(flags, ROLE_FLAGS[role], flagSource, env, `MINI_CURSOR_${role.toUpperCase()}_MODEL`);
    if (named) roleModels[role] = named.value;
  }
  const endpoint = pick(flags, "baseUrl", flagSource, env, "OPENAI_BASE_URL");
  const key = pick(flags, "apiKey", flagSource, env, "OPENAI_API_KEY");
  const apiKey = key?.value;
  const named = pick(flags, "model", flagSource, env, "MINI_CURSOR_MODEL")?.value;
  const promptCacheKey = cacheKeySetting(envValue(env, "MINI_CURSOR_PROMPT_CACHE_KEY"));
  const common = { roleModels, timeoutMs, maxRetries, ...(promptCacheKey ? { promptCacheKey } : {}) };

  if (endpoint) {
    const baseUrl = httpUrl(endpoint.value, endpoint.from);
    if (!named) {
      throw new ConfigError(
        `${endpoint.from} is set (${baseUrl}) but no model is named: set MINI_CURSOR_MODEL or ${flagSource === "cli" ? "pass --model" : "configurable.model"}.`,
      );
    }
    // Local servers (Ollama, vLLM, llama.cpp) accept any key; the client insists on one.
    return { baseUrl, apiKey: apiKey ?? "not-needed", model: named, ...common, source: baseUrl, origin: `endpoint from ${endpoint.from}` };
  }
  if (key) return { apiKey: key.value, model: named ?? DEFAULT_OPENAI_MODEL, ...common, source: "OpenAI", origin: `OpenAI, key from ${key.from}` };

  if (!ollama?.models) throw new ConfigError(MODEL_HELP);
  const model = named ?? ollama.models[0];
  if (!model) throw new ConfigError(`Ollama answers at ${ollama.url} but has no models: run \`ollama pull qwen2.5-coder\`.`);
  return {
    baseUrl: `${ollama.url}/v1`,
    apiKey: "ollama",
    model,
    ...common,
    source: `local Ollama found at ${ollama.url} (no endpoint configured)`,
    origin: `a local Ollama found ${envValue(env, "OLLAMA_HOST") ? "at OLLAMA_HOST" : "at its default address"}, as no endpoint is configured`,
  };
}

function cacheKeySetting(value: string | undefined): "on" | "off" | undefined {
  if (value === undefined || value === "auto") return undefined;
  if (value === "on" || value === "off") return value;
  throw new ConfigError(`MINI_CURSOR_PROMPT_CACHE_KEY must be on, off or auto (got "${value}").`);
}
