/**
 * Embeddings from any server that implements OpenAI's `POST {baseUrl}/embeddings`: OpenAI itself, Ollama
 * (`http://127.0.0.1:11434/v1`), vLLM, llama.cpp, LM Studio.
 *
 * This is a plain `fetch` rather than `OpenAIEmbeddings` from `@langchain/openai` on purpose: the OpenAI SDK under
 * it asks for base64 vectors by default and decodes whatever comes back as base64, which garbles the answer of a
 * server that ignores `encoding_format`; it also retries silently and its errors name neither the URL nor the
 * model. Here the request asks for floats, the answer's shape is checked, and every failure is one
 * `EmbedderError` that says which URL and model failed and why, and whether it is worth trying again later (a rate
 * limit, an overloaded server, a dropped connection; with the wait the server asked for). There are no retries
 * here: memory is best-effort and must not hold a turn up, and the codebase index retries its batches itself
 * (src/memory/retrieval/embed-retry.ts).
 */
import { systemClock, type Clock } from "../../platform/clock.js";
import { logger } from "../../platform/logger.js";
import { sharedAttempt } from "../../platform/shared-attempt.js";
import { isTransientNetworkError, isTransientStatus, retryAfterMs } from "./retry-after.js";
import { EmbedderError, type Embedder, type EmbedderErrorOptions } from "./types.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAICompatibleOptions {
  /** Base URL including the version path, e.g. `http://127.0.0.1:11434/v1`. Defaults to OpenAI. */
  baseUrl?: string;
  apiKey: string;
  model: string;
  /** Per request (one batch), including reading the answer. Default 30 s. */
  timeoutMs?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Reads an HTTP-date `Retry-After`. */
  clock?: Clock;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BATCH_SIZE = 64;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isVector(v: unknown): v is number[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** The vectors of an OpenAI-shaped answer in input order, or why the answer does not fit. */
function readVectors(body: unknown, expected: number): number[][] | string {
  if (!isRecord(body) || !Array.isArray(body.data)) return 'no "data" array';
  if (body.data.length !== expected) return `${body.data.length} embeddings for ${expected} inputs`;
  const items: { index: number; vector: number[] }[] = [];
  for (const [position, item] of body.data.entries()) {
    if (!isRecord(item)) return `data[${position}] is not an object`;
    if (!isVector(item.embedding)) return `data[${position}].embedding is not a non-empty array of numbers`;
    const index = typeof item.index === "number" ? item.index : position;
    items.push({ index, vector: item.embedding });
  }
  // Servers may answer out of order; `index` says which input each vector belongs to.
  items.sort((x, y) => x.index - y.index);
  if (items.some((item, i) => item.index !== i)) return "the data[].index values are not 0..n-1";
  const length = items[0]?.vector.length;
  if (items.some((item) => item.vector.length !== length)) return "embeddings of different lengths in one answer";
  return items.map((item) => item.vector);
}

/** The server's own error text when it sent one (OpenAI: `{error:{message}}`, Ollama: `{error:"..."}`). */
function serverMessage(text: string): string {
  let message = text;
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body)) {
      if (typeof body.error === "string") message = body.error;
      else if (isRecord(body.error) && typeof body.error.message === "string") message = body.error.message;
    }
  } catch {
    // Not JSON: the raw text is the best we have.
  }
  message = message.replace(/\s+/g, " ").trim();
  return message.length > 300 ? `${message.slice(0, 300)}…` : message || "(empty body)";
}

/**
 * A 429 that no wait fixes: the account's quota or credit is used up (OpenAI's `insufficient_quota`), as the chat
 * model's client reads it (src/models/model-errors.ts).
 */
function quotaUsedUp(status: number, text: string): boolean {
  if (status !== 429) return false;
  let code: unknown;
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body) && isRecord(body.error)) code = body.error.code ?? body.error.type;
  } catch {
    // Not JSON: the message alone decides.
  }
  return code === "insufficient_quota" || /quota|billing|credit/i.test(serverMessage(text));
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return " (check MINI_CURSOR_EMBEDDING_API_KEY or OPENAI_API_KEY)";
  if (status === 404) return " (does the base URL end in /v1, and does the server have this model?)";
  return "";
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `cannot reach the server (${error.message}${cause})`;
  }
  return `cannot reach the server (${String(error)})`;
}

export function createOpenAICompatibleEmbedder(options: OpenAICompatibleOptions): Embedder {
  const { apiKey, model } = options;
  const url = `${(options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "")}/embeddings`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!model) throw new EmbedderError("openai-compatible embedder: a model name is required");
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new EmbedderError(`openai-compatible embedder: batchSize must be a positive integer, got ${batchSize}`);
  }
  const clock = options.clock ?? systemClock;
  const fail = (why: string, more: EmbedderErrorOptions = {}) => new EmbedderError(`embeddings request to ${url} (model "${model}") failed: ${why}`, more);

  let knownDimension: number | undefined;

  async function request(input: string[]): Promise<number[][]> {
    logger.debug(`embedding ${input.length} text(s) with "${model}" at ${url}`);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        // Some servers reject an empty input string; a single space embeds as "nothing" everywhere.
        body: JSON.stringify({ model, input: input.map((t) => (t === "" ? " " : t)), encoding_format: "float" }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw fail(describeFetchError(error, timeoutMs), { transient: isTransientNetworkError(error) });
    }
    if (!response.ok) {
      const transient = isTransientStatus(response.status) && !quotaUsedUp(response.status, text);
      const wait = transient ? retryAfterMs(response.headers, clock.now()) : undefined;
      throw fail(`HTTP ${response.status}: ${serverMessage(text)}${hintFor(response.status)}`, {
        transient,
        ...(wait !== undefined ? { retryAfterMs: wait } : {}),
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(`the answer is not JSON: ${serverMessage(text)}`);
    }
    const vectors = readVectors(body, input.length);
    if (typeof vectors === "string") throw fail(`unexpected answer shape: ${vectors}`);
    const length = vectors[0]?.length ?? 0;
    if (knownDimension !== undefined && length !== knownDimension) {
      throw fail(`vectors of length ${length}, earlier answers had ${knownDimension}`);
    }
    knownDimension = length;
    return vectors;
  }

  async function embedDocuments(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    // One batch at a time: a local server (Ollama) gains nothing from parallel requests and may run out of memory.
    for (let start = 0; start < texts.length; start += batchSize) {
      out.push(...(await request(texts.slice(start, start + batchSize))));
    }
    return out;
  }

  // One real call tells the length.
  const probeDimension = sharedAttempt(async () => (await request(["dimension probe"]))[0]?.length ?? 0);

  return {
    id: `openai-compatible:${model}`,
    knownDimension: () => knownDimension,
    dimension: async () => knownDimension ?? probeDimension(),
    embedDocuments,
    async embedQuery(text) {
      const [vector] = await request([text]);
      if (!vector) throw fail("no embedding in the answer");
      return vector;
    },
  };
}
