import { ConfigError } from "../config-file.js";
import { envValue, memoryDataDir, modelCacheDir } from "./env.js";
import { httpUrl } from "./values.js";

/* Memory settings come from the environment alone; kept apart from the file schema so `memory list` loads no zod. */

export type EmbeddingSettings =
  | { kind: "local" }
  /** Any OpenAI-compatible `/embeddings` endpoint; no base URL means OpenAI's. */
  | { kind: "openai"; model: string; baseUrl?: string; apiKey: string }
  /**
   * A model run in process by transformers.js (`@huggingface/transformers`, installed by the user beside
   * mini-cursor), downloaded on first use from `remoteHost` (the Hugging Face Hub when absent) into `cacheDir`.
   */
  | { kind: "transformers"; model: string; cacheDir: string; remoteHost?: string };

/** How a token reaches a remote Chroma: `Authorization: Bearer <token>` (Chroma's default) or `X-Chroma-Token: <token>`. */
export type ChromaAuthHeader = "authorization" | "x-chroma-token";

/** Who memory is on a remote Chroma (CHROMA_URL): its tenant and database, and the token if it needs one. */
export interface ChromaAccess {
  tenant: string;
  database: string;
  /** A credential: sent to Chroma only, never printed, logged or put in an error message. */
  token?: string;
  authHeader: ChromaAuthHeader;
}

export const DEFAULT_CHROMA_TENANT = "default_tenant";
export const DEFAULT_CHROMA_DATABASE = "default_database";

/** Where memory lives and how it embeds; used whenever memory is on. */
export interface MemoryStoreSettings {
  /** A running Chroma server to use instead of starting one. */
  chromaUrl?: string;
  /** Tenant, database and token for `chromaUrl`; present exactly when it is. */
  chromaAccess?: ChromaAccess;
  /** Where a local Chroma keeps its data. */
  dataDir: string;
  /** How long a local Chroma server stays up after its last session (MINI_CURSOR_CHROMA_IDLE); 0 stops it with it. */
  chromaIdleSeconds: number;
  /** Collection name; the memory module's default when absent. */
  collection?: string;
  embeddings: EmbeddingSettings;
}

/** A store that is on with its settings, or off with the reason (memory's, or the codebase index's). */
export type StoreSwitch = { enabled: false; reason: string } | ({ enabled: true } & MemoryStoreSettings);

/** Memory's settings: the store's, and how long a planner turn waits for a recall (MINI_CURSOR_MEMORY_WAIT). */
export type MemorySettings = { enabled: false; reason: string } | ({ enabled: true; recallWaitMs: number } & MemoryStoreSettings);

const EMBEDDER_KINDS = ["local", "openai", "transformers"] as const;

/**
 * The default model of MINI_CURSOR_EMBEDDINGS=transformers: sentence-transformers' all-MiniLM-L6-v2 in the ONNX export
 * transformers.js loads. Small enough to run on any laptop's CPU without a wait that shows (23M parameters, a 90 MB
 * download, 384 dimensions), and trained on about a billion text pairs that include CodeSearchNet's doc comment and
 * code pairs and StackExchange questions, so it knows that "authenticate" and "log in" mean one thing and reads doc
 * comments and identifiers well enough for a codebase index. Larger code models would recall more and cost more.
 */
export const DEFAULT_TRANSFORMERS_MODEL = "Xenova/all-MiniLM-L6-v2";

/** A model id as the Hub names them (`org/name` or `name`; the check transformers.js makes before downloading). */
const MODEL_ID = /^([\w.-]+\/)?[\w.-]{1,96}$/;

function transformersConfig(env: NodeJS.ProcessEnv): EmbeddingSettings {
  const model = envValue(env, "MINI_CURSOR_EMBEDDING_MODEL") ?? DEFAULT_TRANSFORMERS_MODEL;
  if (!MODEL_ID.test(model) || model.includes("..") || model.includes("--")) {
    throw new ConfigError(
      `MINI_CURSOR_EMBEDDING_MODEL must be a Hugging Face model id such as ${DEFAULT_TRANSFORMERS_MODEL} for MINI_CURSOR_EMBEDDINGS=transformers, got "${model}"`,
    );
  }
  // HF_ENDPOINT: the Hugging Face tools' own variable for a mirror or a private hub.
  const endpoint = envValue(env, "HF_ENDPOINT");
  const remoteHost = endpoint ? httpUrl(endpoint, "HF_ENDPOINT") : undefined;
  return { kind: "transformers", model, cacheDir: modelCacheDir(env), ...(remoteHost ? { remoteHost } : {}) };
}

/** The memory embedder: MINI_CURSOR_EMBEDDINGS and friends (environment only). */
export function resolveEmbeddingConfig(env: NodeJS.ProcessEnv): EmbeddingSettings {
  const raw = envValue(env, "MINI_CURSOR_EMBEDDINGS") ?? "local";
  const kind = raw.toLowerCase();
  if (kind === "local") return { kind: "local" };
  if (kind === "transformers") return transformersConfig(env);
  if (kind !== "openai") throw new ConfigError(`MINI_CURSOR_EMBEDDINGS must be one of ${EMBEDDER_KINDS.join(", ")}, got "${raw}"`);
  const model = envValue(env, "MINI_CURSOR_EMBEDDING_MODEL");
  if (!model) {
    throw new ConfigError("MINI_CURSOR_EMBEDDINGS=openai needs MINI_CURSOR_EMBEDDING_MODEL, e.g. text-embedding-3-small (OpenAI) or nomic-embed-text (Ollama)");
  }
  const ownUrl = envValue(env, "MINI_CURSOR_EMBEDDING_BASE_URL");
  const chatUrl = envValue(env, "OPENAI_BASE_URL");
  const baseUrl = ownUrl ? httpUrl(ownUrl, "MINI_CURSOR_EMBEDDING_BASE_URL") : chatUrl ? httpUrl(chatUrl, "OPENAI_BASE_URL") : undefined;
  const apiKey = envValue(env, "MINI_CURSOR_EMBEDDING_API_KEY") ?? envValue(env, "OPENAI_API_KEY");
  if (!apiKey && !baseUrl) {
    throw new ConfigError(
      "MINI_CURSOR_EMBEDDINGS=openai without a base URL uses OpenAI's endpoint, which needs MINI_CURSOR_EMBEDDING_API_KEY or " +
        "OPENAI_API_KEY; for a local server set MINI_CURSOR_EMBEDDING_BASE_URL (e.g. http://127.0.0.1:11434/v1)",
    );
  }
  // Local servers (Ollama, vLLM, llama.cpp) accept any key but the Authorization header still needs one.
  return { kind: "openai", model, ...(baseUrl ? { baseUrl } : {}), apiKey: apiKey ?? "not-needed" };
}

const ACCESS_VARIABLES = ["CHROMA_TOKEN", "CHROMA_AUTH_HEADER", "CHROMA_TENANT", "CHROMA_DATABASE"] as const;

function authHeader(env: NodeJS.ProcessEnv): ChromaAuthHeader {
  const raw = envValue(env, "CHROMA_AUTH_HEADER");
  if (raw === undefined) return "authorization";
  const name = raw.toLowerCase().replace(/_/g, "-");
  if (name === "authorization" || name === "x-chroma-token") return name;
  throw new ConfigError(`CHROMA_AUTH_HEADER must be authorization (Authorization: Bearer <token>) or x-chroma-token, got "${raw}"`);
}

/** CHROMA_TOKEN, CHROMA_AUTH_HEADER, CHROMA_TENANT, CHROMA_DATABASE: only with CHROMA_URL (the local server takes none). */
export function resolveChromaAccess(env: NodeJS.ProcessEnv, chromaUrl: string | undefined): ChromaAccess | undefined {
  if (!chromaUrl) {
    const stray = ACCESS_VARIABLES.filter((name) => envValue(env, name) !== undefined);
    if (stray.length === 0) return undefined;
    throw new ConfigError(
      `${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} for a remote Chroma and need${stray.length === 1 ? "s" : ""} CHROMA_URL; the local server takes none`,
    );
  }
  const token = envValue(env, "CHROMA_TOKEN");
  // Never the value itself in a message: it is a credential.
  if (token !== undefined && [...token].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f))
    throw new ConfigError("CHROMA_TOKEN contains whitespace or a control character; an HTTP header cannot carry it");
  return {
    tenant: envValue(env, "CHROMA_TENANT") ?? DEFAULT_CHROMA_TENANT,
    database: envValue(env, "CHROMA_DATABASE") ?? DEFAULT_CHROMA_DATABASE,
    ...(token ? { token } : {}),
    authHeader: authHeader(env),
  };
}

/** Five minutes: the next session of a working person usually comes sooner, and an idle server costs no CPU. */
export const DEFAULT_CHROMA_IDLE_SECONDS = 300;

/** MINI_CURSOR_CHROMA_IDLE: whole seconds, 0 (stop with the last session) to a day. */
export function resolveChromaIdle(env: NodeJS.ProcessEnv): number {
  const raw = envValue(env, "MINI_CURSOR_CHROMA_IDLE");
  if (raw === undefined) return DEFAULT_CHROMA_IDLE_SECONDS;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds > 86_400) {
    throw new ConfigError(`MINI_CURSOR_CHROMA_IDLE must be whole seconds from 0 (stop the local Chroma server with the last session) to 86400, got "${raw}"`);
  }
  return seconds;
}

/**
 * Where memory lives and how it embeds (environment only): CHROMA_URL and its access (token, tenant, database),
 * MINI_CURSOR_DATA_DIR and how long its local server idles (MINI_CURSOR_CHROMA_IDLE), the collection, the embedder.
 */
export function resolveMemoryStoreConfig(env: NodeJS.ProcessEnv): MemoryStoreSettings {
  const raw = envValue(env, "CHROMA_URL");
  const chromaUrl = raw ? httpUrl(raw, "CHROMA_URL") : undefined;
  const chromaAccess = resolveChromaAccess(env, chromaUrl);
  const collection = envValue(env, "MINI_CURSOR_MEMORY_COLLECTION");
  return {
    ...(chromaUrl ? { chromaUrl } : {}),
    ...(chromaAccess ? { chromaAccess } : {}),
    dataDir: memoryDataDir(env),
    chromaIdleSeconds: resolveChromaIdle(env),
    ...(collection ? { collection } : {}),
    embeddings: resolveEmbeddingConfig(env),
  };
}

/**
 * How long a planner turn waits for memory to open and recall (MINI_CURSOR_MEMORY_WAIT, milliseconds). Memory starts
 * opening as the session starts: with the local Chroma already up (it stays up between sessions) a recall is ready in
 * well under this, and the first plan gets its memories; a Chroma that must start first takes a second or more, and
 * that plan goes without them (the session says so) rather than keep the first request waiting.
 */
export const DEFAULT_MEMORY_WAIT_MS = 300;

/** MINI_CURSOR_MEMORY_WAIT: whole milliseconds, 0 (never wait) to a minute. */
export function resolveMemoryWait(env: NodeJS.ProcessEnv): number {
  const raw = envValue(env, "MINI_CURSOR_MEMORY_WAIT");
  if (raw === undefined) return DEFAULT_MEMORY_WAIT_MS;
  const ms = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms > 60_000) {
    throw new ConfigError(`MINI_CURSOR_MEMORY_WAIT must be whole milliseconds from 0 to 60000 (how long the planner waits for memory), got "${raw}"`);
  }
  return ms;
}

/** Long-term memory of a session: off with MINI_CURSOR_MEMORY=off (then nothing else is checked), else the store settings. */
export function resolveMemoryConfig(env: NodeJS.ProcessEnv): MemorySettings {
  if (envValue(env, "MINI_CURSOR_MEMORY") === "off") return { enabled: false, reason: "memory is disabled (MINI_CURSOR_MEMORY=off)" };
  return { enabled: true, recallWaitMs: resolveMemoryWait(env), ...resolveMemoryStoreConfig(env) };
}

/**
 * The codebase index of a session (src/retrieval): on with memory, since it lives on memory's Chroma server with
 * memory's embedder; MINI_CURSOR_INDEX=off turns it off alone, MINI_CURSOR_INDEX=on keeps it on without memory.
 */
export function resolveIndexConfig(env: NodeJS.ProcessEnv, memory: MemorySettings): StoreSwitch {
  const raw = envValue(env, "MINI_CURSOR_INDEX")?.toLowerCase();
  if (raw !== undefined && raw !== "on" && raw !== "off") throw new ConfigError(`MINI_CURSOR_INDEX must be on or off, got "${raw}"`);
  if (raw === "off") return { enabled: false, reason: "the codebase index is disabled (MINI_CURSOR_INDEX=off)" };
  if (memory.enabled) return memory;
  if (raw === "on") return { enabled: true, ...resolveMemoryStoreConfig(env) };
  return { enabled: false, reason: "the codebase index is off with memory (MINI_CURSOR_MEMORY=off); MINI_CURSOR_INDEX=on turns it on alone" };
}
