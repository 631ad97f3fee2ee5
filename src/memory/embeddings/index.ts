/**
 * Builds the embedder from its settings (resolved by src/platform/config from the environment). The local hash embedder is
 * the default because it works offline with nothing to download; a real embedding model (OpenAI, Ollama, any
 * OpenAI-compatible server, or one run in process by transformers.js) is opt-in and recalls paraphrased notes much
 * better.
 *
 *   MINI_CURSOR_EMBEDDINGS          local (default) | openai | transformers
 *   MINI_CURSOR_EMBEDDING_MODEL     required for openai, e.g. text-embedding-3-small or nomic-embed-text;
 *                                   for transformers a Hub model id, default Xenova/all-MiniLM-L6-v2
 *   MINI_CURSOR_EMBEDDING_BASE_URL  defaults to OPENAI_BASE_URL, then OpenAI
 *   MINI_CURSOR_EMBEDDING_API_KEY   defaults to OPENAI_API_KEY; not needed for a local server
 *   MINI_CURSOR_EMBEDDING_CACHE     transformers: where models are downloaded to (default ~/.cache/mini-cursor/models)
 *   HF_ENDPOINT                     transformers: a Hub mirror to download from
 */
// Not the config barrel: it brings the config file's schema (zod), which `index search` and `memory list` never need.
import { ConfigError } from "../../platform/config-file.js";
import { resolveEmbeddingConfig, type EmbeddingSettings } from "../../platform/config/memory-settings.js";
import { createLocalHashEmbedder } from "./local-hash.js";
import { createOpenAICompatibleEmbedder } from "./openai-compatible.js";
import { createTransformersEmbedder } from "./transformers-local.js";
import { EmbedderError, type Embedder } from "./types.js";

export { cosineSimilarity } from "./cosine.js";
export { createLocalHashEmbedder, LOCAL_HASH_ID, type LocalHashOptions } from "./local-hash.js";
export { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from "./openai-compatible.js";
export { createTransformersEmbedder, TRANSFORMERS_PACKAGE, type TransformersEmbedderOptions } from "./transformers-local.js";
export { EmbedderError, type Embedder } from "./types.js";

export function createEmbedder(settings: EmbeddingSettings): Embedder {
  if (settings.kind === "local") return createLocalHashEmbedder();
  if (settings.kind === "transformers") {
    return createTransformersEmbedder({
      model: settings.model,
      cacheDir: settings.cacheDir,
      ...(settings.remoteHost ? { remoteHost: settings.remoteHost } : {}),
    });
  }
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
