import { ChromaClient, ChromaForbiddenError, ChromaUnauthorizedError, type Collection } from "chromadb";
import { refusedError } from "./chroma/access.js";
import { VectorWriter } from "./chroma/record-writes.js";
import type { ChromaEndpoint } from "./chroma/types.js";
import type { Embedder } from "./embeddings/types.js";
import { errorMessage } from "../platform/error-info.js";

export { DEFAULT_COLLECTION } from "./types.js";
export { VectorWriter };

/** The collection was built by another embedder: using it would compare vectors of different spaces. */
export class EmbedderMismatchError extends Error {}

export function chromaClient(endpoint: ChromaEndpoint): ChromaClient {
  return new ChromaClient({
    host: endpoint.host,
    port: endpoint.port,
    ssl: endpoint.ssl,
    tenant: endpoint.tenant,
    database: endpoint.database,
    headers: endpoint.authHeaders(),
  });
}

/**
 * One line for a failure talking to Chroma through the client: its own messages for a refused token ("Unauthorized")
 * or a missing tenant/database say neither where nor what to fix. Other errors keep their message.
 */
export function describeChromaFailure(error: unknown, endpoint: ChromaEndpoint): string {
  const status = error instanceof ChromaUnauthorizedError ? 401 : error instanceof ChromaForbiddenError ? 403 : 0;
  const refused = refusedError(endpoint, status);
  if (refused) return refused.message;
  return errorMessage(error);
}

function describeBuild(metadata: Collection["metadata"]): { embedder: string; dimension: number } {
  const embedder = typeof metadata?.embedder === "string" ? metadata.embedder : "unknown";
  const dimension = typeof metadata?.dimension === "number" ? metadata.dimension : 0;
  return { embedder, dimension };
}

/**
 * Opens (or creates) the memory collection, recording which embedder and dimension built it, and refuses
 * a mismatch with a message that says how to fix it instead of failing deep inside Chroma.
 */
export async function openCollection(client: ChromaClient, name: string, embedder: Embedder): Promise<Collection> {
  const dimension = await embedder.dimension();
  const collection = await client.getOrCreateCollection({
    name,
    embeddingFunction: null,
    metadata: { embedder: embedder.id, dimension, createdBy: "mini-cursor" },
    configuration: { hnsw: { space: "cosine" } },
  });
  const built = describeBuild(collection.metadata);
  if (built.embedder !== embedder.id || built.dimension !== dimension) {
    throw new EmbedderMismatchError(
      `memory collection "${name}" was built with embedder ${built.embedder} (${built.dimension} dimensions) but the current embedder is ${embedder.id} (${dimension} dimensions). ` +
        `Run \`mini-cursor memory reindex\` to re-embed it with the current embedder, or set MINI_CURSOR_MEMORY_COLLECTION to a new collection name.`,
    );
  }
  return collection;
}

/**
 * Re-embeds every memory of `name` with `embedder` into a fresh collection, then swaps it in under the same name.
 * Documents and metadata are kept; only vectors change.
 */
export async function reindexCollection(client: ChromaClient, writer: VectorWriter, name: string, embedder: Embedder, stamp: number): Promise<number> {
  const old = await client.getCollection({ name, embeddingFunction: undefined }).catch(() => null);
  if (!old) throw new Error(`no memory collection "${name}" to reindex`);
  const all = await old.get({ include: ["documents", "metadatas"] });
  const tempName = `${name}-reindex-${stamp}`;
  const dimension = await embedder.dimension();
  const fresh = await client.createCollection({
    name: tempName,
    embeddingFunction: null,
    metadata: { embedder: embedder.id, dimension, createdBy: "mini-cursor" },
    configuration: { hnsw: { space: "cosine" } },
  });
  const batch = 256;
  for (let i = 0; i < all.ids.length; i += batch) {
    const ids = all.ids.slice(i, i + batch);
    const documents = all.documents.slice(i, i + batch).map((d) => d ?? "");
    const metadatas = all.metadatas.slice(i, i + batch).map((m) => m ?? {});
    await writer.write(fresh, "upsert", { ids, documents, metadatas, embeddings: await embedder.embedDocuments(documents) });
  }
  await client.deleteCollection({ name });
  await fresh.modify({ name });
  return all.ids.length;
}
