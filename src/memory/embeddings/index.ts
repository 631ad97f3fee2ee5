/**
 * Picks the embedder from the environment. The local hash embedder is the default because it works offline with
 * nothing to download; a real embedding model (OpenAI, Ollama, any OpenAI-compatible server) is opt-in and
 * recalls paraphrased notes much better.
 *
 *   MINI_CURSOR_EMBEDDINGS          local (default) | openai
 *   MINI_CURSOR_EMBEDDING_MODEL     required for openai, e.g. text-embedding-3-small or nomic-embed-text
 *   MINI_CURSOR_EMBEDDING_BASE_URL  defaults to OPENAI_BASE_URL, then OpenAI
 *   MINI_CURSOR_EMBEDDING_API_KEY   defaults to OPENAI_API_KEY; not needed for a local server
 */
import { createLocalHashEmbedder } from "./local-hash.js";
import { createOpenAICompatibleEmbedder, OPENAI_DEFAULT_BASE_URL } from "./openai-compatible.js";
import { EmbedderError, type Embedder } from "./types.js";

export { cosineSimilarity } from "./cosine.js";
export { createLocalHashEmbedder, LOCAL_HASH_ID, type LocalHashOptions } from "./local-hash.js";
export { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from "./openai-compatible.js";
export { EmbedderError, type Embedder } from "./types.js";

export const EMBEDDER_KINDS = ["local", "openai"] as const;

/** An empty variable counts as unset (`FOO= cmd` is a common way to clear one). */
function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function resolveEmbedder(env: NodeJS.ProcessEnv): Embedder {
  const kind = (setting(env, "MINI_CURSOR_EMBEDDINGS") ?? "local").toLowerCase();
  if (kind === "local") return createLocalHashEmbedder();
  if (kind !== "openai") {
    throw new EmbedderError(
      `MINI_CURSOR_EMBEDDINGS must be one of ${EMBEDDER_KINDS.join(", ")}, got "${env.MINI_CURSOR_EMBEDDINGS}"`,
    );
  }

  const model = setting(env, "MINI_CURSOR_EMBEDDING_MODEL");
  if (!model) {
    throw new EmbedderError(
      "MINI_CURSOR_EMBEDDINGS=openai needs MINI_CURSOR_EMBEDDING_MODEL, e.g. text-embedding-3-small (OpenAI) " +
        "or nomic-embed-text (Ollama)",
    );
  }
  const baseUrl = setting(env, "MINI_CURSOR_EMBEDDING_BASE_URL") ?? setting(env, "OPENAI_BASE_URL");
  const key = setting(env, "MINI_CURSOR_EMBEDDING_API_KEY") ?? setting(env, "OPENAI_API_KEY");
  if (!key && !baseUrl) {
    throw new EmbedderError(
      `MINI_CURSOR_EMBEDDINGS=openai without a base URL uses ${OPENAI_DEFAULT_BASE_URL}, which needs ` +
        "MINI_CURSOR_EMBEDDING_API_KEY or OPENAI_API_KEY; for a local server set MINI_CURSOR_EMBEDDING_BASE_URL " +
        "(e.g. http://127.0.0.1:11434/v1)",
    );
  }
  // Local servers (Ollama, vLLM, llama.cpp) accept any key but the Authorization header still needs one.
  return createOpenAICompatibleEmbedder({ baseUrl, apiKey: key ?? "not-needed", model });
}
