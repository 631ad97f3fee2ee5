/**
 * Builds the embedder from its settings (resolved by src/platform/config from the environment). The local hash embedder is
 * the default because it works offline with nothing to download; a real embedding model (OpenAI, Ollama, any
 * OpenAI-compatible server) is opt-in and recalls paraphrased notes much better.
 *
 *   MINI_CURSOR_EMBEDDINGS          local (default) | openai
 *   MINI_CURSOR_EMBEDDING_MODEL     required for openai, e.g. text-embedding-3-small or nomic-embed-text
 *   MINI_CURSOR_EMBEDDING_BASE_URL  defaults to OPENAI_BASE_URL, then OpenAI
 *   MINI_CURSOR_EMBEDDING_API_KEY   defaults to OPENAI_API_KEY; not needed for a local server
 */
import { ConfigError, resolveEmbeddingConfig, type EmbeddingSettings } from "../../platform/config/index.js";
import { createLocalHashEmbedder } from "./local-hash.js";
import { createOpenAICompatibleEmbedder } from "./openai-compatible.js";
import { EmbedderError, type Embedder } from "./types.js";

export { cosineSimilarity } from "./cosine.js";
export { createLocalHashEmbedder, LOCAL_HASH_ID, type LocalHashOptions } from "./local-hash.js";
export { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from "./openai-compatible.js";
export { EmbedderError, type Embedder } from "./types.js";

export function createEmbedder(settings: EmbeddingSettings): Embedder {
  if (settings.kind === "local") return createLocalHashEmbedder();
  return createOpenAICompatibleEmbedder({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, model: settings.model });
}

/** The embedder the environment asks for; a configuration problem is an EmbedderError naming the variable. */
export function resolveEmbedder(env: NodeJS.ProcessEnv): Embedder {
  let settings: EmbeddingSettings;
  try {
    settings = resolveEmbeddingConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new EmbedderError(error.message, { cause: error });
    throw error;
  }
  return createEmbedder(settings);
}
