import { resolveMemoryConfig, type StoreSwitch } from "../platform/config/index.js";
import { DEFAULT_CHROMA_DATABASE, DEFAULT_CHROMA_TENANT } from "../platform/config/memory-settings.js";
import type { Clock } from "../platform/clock.js";
import type { ChromaClient } from "chromadb";
import type { ChromaMemory } from "./chroma-memory.js";
import { ensureChromaServer } from "./chroma/server.js";
import type { ChromaEndpoint } from "./chroma/types.js";
import { createEmbedder } from "./embeddings/index.js";
import { ResilientMemory } from "./resilient.js";
import { memoryOff, type MemoryStore } from "./types.js";
import { errorMessage } from "../platform/error-info.js";

export interface MemoryRuntime {
  /** What the graph uses: the store, or memoryOff. */
  store: MemoryStore;
  /** The full store for the `memory` commands; absent when memory is off. */
  chroma?: ChromaMemory;
  endpoint?: ChromaEndpoint;
  /** The client memory talks to Chroma with: the codebase index shares it (one lease, one client, one pre-flight). */
  client?: ChromaClient;
  /** One line for the user: where memory lives, or why it is off. */
  status: string;
  /** Why memory is off, when it failed to open. */
  failure?: unknown;
  /** Stops the Chroma server if this process started it. */
  close(): Promise<void>;
}

export interface OpenMemoryOptions {
  env: NodeJS.ProcessEnv;
  /** Resolved memory settings (src/platform/config); resolved from `env` when absent. */
  settings?: StoreSwitch;
  clock: Clock;
  /** Told once if memory fails during the session. */
  onOff?: (reason: string) => void;
}

/** The tenant and database, when they are not Chroma's defaults (a remote server's own). */
function placeOf(endpoint: ChromaEndpoint): string {
  if (endpoint.tenant === DEFAULT_CHROMA_TENANT && endpoint.database === DEFAULT_CHROMA_DATABASE) return "";
  return ` (tenant ${endpoint.tenant}, database ${endpoint.database})`;
}

const off = (status: string): MemoryRuntime => ({ store: memoryOff, status, close: async () => undefined });

/**
 * Starts (or reuses, or connects to) Chroma and opens the memory collection. Any failure leaves memory
 * off with the reason, never an error: a session without memory is still a session.
 */
export async function openMemory(o: OpenMemoryOptions): Promise<MemoryRuntime> {
  let endpoint: ChromaEndpoint | undefined;
  let describe = (error: unknown): string => errorMessage(error);
  try {
    const settings = o.settings ?? resolveMemoryConfig(o.env);
    if (!settings.enabled) return off(settings.reason);
    const embedder = createEmbedder(settings.embeddings);
    // The Chroma client is loaded only when memory is on, while the server starts (a child process).
    const modules = Promise.all([import("./collection.js"), import("./chroma-memory.js")]);
    modules.catch(() => undefined);
    endpoint = await ensureChromaServer({
      dataDir: settings.dataDir,
      chromaUrl: settings.chromaUrl,
      access: settings.chromaAccess,
      env: o.env,
      idleSeconds: settings.chromaIdleSeconds,
    });
    const [{ chromaClient, describeChromaFailure, DEFAULT_COLLECTION, openCollection, VectorWriter }, { ChromaMemory }] = await modules;
    const opened = endpoint;
    describe = (error) => describeChromaFailure(error, opened);
    const name = settings.collection ?? DEFAULT_COLLECTION;
    const client = chromaClient(endpoint);
    const collection = await openCollection(client, name, embedder);
    // Chroma loads a collection's segments on its first use (~0.8 s with data here): pay that as part of opening,
    // which nothing waits for, rather than in the first recall or search.
    await collection.count();
    const chroma = new ChromaMemory({ collection, writer: new VectorWriter(client, endpoint), embedder, clock: o.clock });
    return {
      store: new ResilientMemory(chroma, (reason) => o.onOff?.(reason), describe),
      chroma,
      endpoint,
      client,
      status: `Chroma at ${endpoint.url}${endpoint.startedByUs ? " (started for this session)" : ""}${placeOf(endpoint)}, collection ${name}, embedder ${embedder.id}`,
      close: () => opened.stop(),
    };
  } catch (error) {
    await endpoint?.stop();
    return { ...off(describe(error)), failure: error };
  }
}
