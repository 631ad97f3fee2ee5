import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChromaClient } from "chromadb";
import type { ChromaEndpoint } from "../src/memory/chroma/types.js";
import { VectorWriter } from "../src/memory/collection.js";
import { createTransformersEmbedder, EmbedderError, resolveEmbedder, TRANSFORMERS_PACKAGE, type Embedder } from "../src/memory/embeddings/index.js";
import { openCodeCollection } from "../src/memory/retrieval/code-collection.js";
import { CodeIndex, type CodeIndexOptions } from "../src/memory/retrieval/code-index.js";
import { systemClock } from "../src/platform/clock.js";
import { ConfigError, resolveEmbeddingConfig, type EmbeddingSettings } from "../src/platform/config/index.js";

/**
 * The embedders bench/retrieval.ts compares beside the offline one, each only when it can run here without asking
 * anything of the user: an OpenAI-compatible endpoint when the environment configures one (as bench/memory-recall.ts
 * reads it), and transformers.js when the package is installed and its model is already in the cache (the bench
 * downloads nothing). Each one left out is one line saying why.
 */
export function otherEmbedders(env: NodeJS.ProcessEnv): { embedders: Embedder[]; skipped: string[] } {
  const embedders: Embedder[] = [];
  const skipped: string[] = [];
  for (const found of [openAICompatible(env), transformers(env)]) {
    if (typeof found === "string") skipped.push(found);
    else embedders.push(found);
  }
  return { embedders, skipped };
}

function openAICompatible(env: NodeJS.ProcessEnv): Embedder | string {
  const wantsOpenAI = env.MINI_CURSOR_EMBEDDINGS?.trim().toLowerCase() === "openai" && Boolean(env.OPENAI_API_KEY);
  if (!env.MINI_CURSOR_EMBEDDING_BASE_URL?.trim() && !wantsOpenAI) {
    return (
      "openai-compatible embedder skipped: not configured; to include it, set MINI_CURSOR_EMBEDDING_BASE_URL=http://127.0.0.1:11434/v1 " +
      "MINI_CURSOR_EMBEDDING_MODEL=nomic-embed-text (Ollama), or MINI_CURSOR_EMBEDDINGS=openai OPENAI_API_KEY=... MINI_CURSOR_EMBEDDING_MODEL=text-embedding-3-small"
    );
  }
  try {
    return resolveEmbedder({ ...env, MINI_CURSOR_EMBEDDINGS: "openai" });
  } catch (error) {
    if (error instanceof EmbedderError) return `openai-compatible embedder skipped: ${error.message}`;
    throw error;
  }
}

function transformers(env: NodeJS.ProcessEnv): Embedder | string {
  try {
    import.meta.resolve(TRANSFORMERS_PACKAGE);
  } catch {
    return `transformers embedder skipped: ${TRANSFORMERS_PACKAGE} is not installed (npm install ${TRANSFORMERS_PACKAGE})`;
  }
  let settings: EmbeddingSettings;
  try {
    // The model a user would get: MINI_CURSOR_EMBEDDING_MODEL when MINI_CURSOR_EMBEDDINGS=transformers, else the default.
    const own = env.MINI_CURSOR_EMBEDDINGS?.trim().toLowerCase() === "transformers";
    settings = resolveEmbeddingConfig({ ...env, MINI_CURSOR_EMBEDDINGS: "transformers", ...(own ? {} : { MINI_CURSOR_EMBEDDING_MODEL: "" }) });
  } catch (error) {
    if (error instanceof ConfigError) return `transformers embedder skipped: ${error.message}`;
    throw error;
  }
  if (settings.kind !== "transformers") throw new Error("unreachable: transformers settings expected");
  const folder = path.join(settings.cacheDir, settings.model);
  const missing = ["config.json", "tokenizer.json", path.join("onnx", "model.onnx")].filter((file) => !existsSync(path.join(folder, file)));
  if (missing.length > 0) {
    return (
      `transformers embedder skipped: model ${settings.model} is not in the cache ${settings.cacheDir} (the bench downloads nothing; ` +
      `a first use with MINI_CURSOR_EMBEDDINGS=transformers downloads it)`
    );
  }
  return createTransformersEmbedder({ model: settings.model, cacheDir: settings.cacheDir, allowDownload: false });
}

/**
 * An index of `root` built with `embedder`, its store in memory. It takes over the workspace's collection (an index
 * records its embedder, so another one rebuilds it): build it after everything that uses the session's index.
 */
/** The environment the benches' git runs get, as a session's: where git is and whose config it reads. */
export const BENCH_GIT_ENV = { PATH: process.env.PATH ?? "", HOME: os.homedir() };

/** Makes the bench's workspace a git repository with everything in one commit, as most projects are. */
export function commitWorkspace(root: string, message: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, ...BENCH_GIT_ENV },
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", message);
}

/** A CodeIndex as the benches build one: the system clock, credential files skipped, `more` on top. */
export async function benchIndex(
  root: string,
  client: ChromaClient,
  endpoint: ChromaEndpoint,
  embedder: Embedder,
  more: Partial<CodeIndexOptions> = {},
): Promise<CodeIndex> {
  return new CodeIndex({
    root,
    collection: await openCodeCollection(client, root, embedder),
    writer: new VectorWriter(client, endpoint),
    embedder,
    clock: systemClock,
    allowCredentialFiles: false,
    ...more,
  });
}

export async function indexWith(
  root: string,
  client: ChromaClient,
  endpoint: ChromaEndpoint,
  embedder: Embedder,
): Promise<{ index: CodeIndex; buildMs: number }> {
  const index = await benchIndex(root, client, endpoint, embedder);
  const built = await index.update({ timeBudgetMs: 30 * 60_000 });
  if (built.partial) throw new EmbedderError(`the build with ${embedder.id} stopped before its end`);
  return { index, buildMs: built.durationMs };
}
