import os from "node:os";
import type { ChromaClient } from "chromadb";
import { resolveMemoryStoreConfig, type MemoryStoreSettings } from "../../platform/config/memory-settings.js";
import { ensureChromaServer } from "../chroma/server.js";
import type { ChromaEndpoint } from "../chroma/types.js";
import type { Clock } from "../../platform/clock.js";
import { credentialFilesAllowed } from "../../safety/credential-files.js";
import type { CodeIndex } from "./code-index.js";
import { createCodeEmbedder } from "./code-embedder.js";

export interface OpenedIndex {
  index: CodeIndex;
  endpoint: ChromaEndpoint;
  /** Stops the Chroma server if this process started it (and no one else uses it). */
  close(): Promise<void>;
}

export interface OpenIndexOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Where Chroma is and which embedder to use (memory's settings); resolved from `env` when absent. */
  settings?: MemoryStoreSettings;
  /** Memory's connection to that server, shared: its owner (memory) stops it, not close(). */
  shared?: SharedChroma;
}

export interface SharedChroma {
  endpoint: ChromaEndpoint;
  client: ChromaClient;
}

/**
 * Opens the workspace's index on the Chroma server long-term memory uses (the same local server, or CHROMA_URL
 * with its token, tenant and database) with the configured embedder. Throws when Chroma cannot be reached.
 */
export async function openCodeIndex(o: OpenIndexOptions): Promise<OpenedIndex> {
  const settings = o.settings ?? resolveMemoryStoreConfig(o.env);
  const embedder = createCodeEmbedder(settings.embeddings);
  const modules = Promise.all([import("../collection.js"), import("./code-collection.js"), import("./code-index.js"), import("./index-store.js")]);
  modules.catch(() => undefined);
  const endpoint =
    o.shared?.endpoint ??
    (await ensureChromaServer({
      dataDir: settings.dataDir,
      chromaUrl: settings.chromaUrl,
      access: settings.chromaAccess,
      env: o.env,
      idleSeconds: settings.chromaIdleSeconds,
    }));
  const stop = o.shared ? async () => undefined : () => endpoint.stop();
  try {
    const [{ chromaClient, VectorWriter }, { openCodeCollection }, { CodeIndex }, { indexStoreFile }] = await modules;
    const client = o.shared?.client ?? chromaClient(endpoint);
    const collection = await openCodeCollection(client, o.root, embedder);
    const index = new CodeIndex({
      root: o.root,
      collection,
      writer: new VectorWriter(client, endpoint),
      embedder,
      clock: o.clock,
      allowCredentialFiles: credentialFilesAllowed(o.env),
      home: o.env.HOME ?? os.homedir(),
      storeFile: indexStoreFile(settings.dataDir, o.root),
      gitEnv: o.env,
    });
    return {
      index,
      endpoint,
      close: async () => {
        await index.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Chroma alone, where the workspace's index lives, for commands that read or delete it (`index status`, `index
 * clear`): no embedder is asked anything, so they work while a remote one is down or over its limits.
 */
export async function connectIndexStore(o: { env: NodeJS.ProcessEnv; settings?: MemoryStoreSettings }): Promise<SharedChroma & { close(): Promise<void> }> {
  const settings = o.settings ?? resolveMemoryStoreConfig(o.env);
  const endpoint = await ensureChromaServer({
    dataDir: settings.dataDir,
    chromaUrl: settings.chromaUrl,
    access: settings.chromaAccess,
    env: o.env,
    idleSeconds: settings.chromaIdleSeconds,
  });
  const { chromaClient } = await import("../collection.js");
  return { endpoint, client: chromaClient(endpoint), close: () => endpoint.stop() };
}
