import type { AgentName } from "../runtime/events.js";

export type ModelRole = AgentName | "planner";
export const MODEL_ROLES: readonly ModelRole[] = ["planner", "researcher", "coder", "reviewer"];

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
  /** Where the settings came from, said to the user once. */
  source: string;
}

export interface ModelFlags {
  model?: string;
  baseUrl?: string;
}

export class ModelConfigError extends Error {}

export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";

export const MODEL_HELP = [
  "No model endpoint is configured. Set one of:",
  "  OpenAI:   OPENAI_API_KEY=sk-...   (optional MINI_CURSOR_MODEL, default gpt-4.1-mini)",
  "  DeepSeek: OPENAI_BASE_URL=https://api.deepseek.com/v1 OPENAI_API_KEY=... MINI_CURSOR_MODEL=deepseek-chat",
  "  Ollama:   start `ollama serve` (found automatically at 127.0.0.1:11434) or OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MINI_CURSOR_MODEL=qwen2.5-coder",
  "  vLLM:     OPENAI_BASE_URL=http://127.0.0.1:8000/v1 MINI_CURSOR_MODEL=<served model name>",
].join("\n");

function wholeNumber(value: string | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new ModelConfigError(`${name} must be a whole number of at least ${min}, got "${value}"`);
  }
  return Number(value);
}

function roleModelsFromEnv(env: NodeJS.ProcessEnv): Partial<Record<ModelRole, string>> {
  const out: Partial<Record<ModelRole, string>> = {};
  for (const role of MODEL_ROLES) {
    const v = env[`MINI_CURSOR_${role.toUpperCase()}_MODEL`];
    if (v) out[role] = v;
  }
  return out;
}

export interface OllamaProbe {
  (baseUrl: string): Promise<string[] | null>;
}

/**
 * Resolve the endpoint from flags and environment. Without an explicit endpoint, a local Ollama at its
 * default address is used when it answers; otherwise a ModelConfigError explains how to configure one.
 */
export async function resolveModelSettings(
  flags: ModelFlags,
  env: NodeJS.ProcessEnv,
  probeOllama: OllamaProbe,
): Promise<ModelSettings> {
  const timeoutMs = wholeNumber(env.MINI_CURSOR_MODEL_TIMEOUT_MS, 120_000, "MINI_CURSOR_MODEL_TIMEOUT_MS", 1);
  const maxRetries = wholeNumber(env.MINI_CURSOR_MODEL_RETRIES, 2, "MINI_CURSOR_MODEL_RETRIES", 0);
  const roleModels = roleModelsFromEnv(env);
  const baseUrl = flags.baseUrl ?? env.OPENAI_BASE_URL ?? undefined;
  const apiKey = env.OPENAI_API_KEY;
  const named = flags.model ?? env.MINI_CURSOR_MODEL;

  if (baseUrl) {
    if (!named) {
      throw new ModelConfigError(
        `OPENAI_BASE_URL is set (${baseUrl}) but no model is named: set MINI_CURSOR_MODEL or pass --model.`,
      );
    }
    // Local servers (Ollama, vLLM, llama.cpp) accept any key; the client insists on one.
    return { baseUrl, apiKey: apiKey || "not-needed", model: named, roleModels, timeoutMs, maxRetries, source: baseUrl };
  }
  if (apiKey) {
    return { apiKey, model: named ?? DEFAULT_OPENAI_MODEL, roleModels, timeoutMs, maxRetries, source: "OpenAI" };
  }
  const ollamaHost = env.OLLAMA_HOST ? normalizeOllamaHost(env.OLLAMA_HOST) : DEFAULT_OLLAMA_URL;
  const models = await probeOllama(ollamaHost);
  if (models) {
    const model = named ?? models[0];
    if (!model) {
      throw new ModelConfigError(`Ollama answers at ${ollamaHost} but has no models: run \`ollama pull qwen2.5-coder\`.`);
    }
    return {
      baseUrl: `${ollamaHost}/v1`,
      apiKey: "ollama",
      model,
      roleModels,
      timeoutMs,
      maxRetries,
      source: `local Ollama found at ${ollamaHost} (no endpoint configured)`,
    };
  }
  throw new ModelConfigError(MODEL_HELP);
}

function normalizeOllamaHost(host: string): string {
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  return withScheme.replace(/\/+$/, "");
}

export function modelFor(settings: ModelSettings, role: ModelRole): string {
  return settings.roleModels[role] ?? settings.model;
}
