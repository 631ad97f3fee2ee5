import { createHash } from "node:crypto";
import type { ChromaClient, Collection } from "chromadb";
import { logger } from "../../platform/logger.js";
import type { Embedder } from "../embeddings/types.js";
import { fileKeyOfChunkId } from "./chunk-id.js";

/** Collections of the codebase index start with this; long-term memory lives in its own collection. */
export const CODE_COLLECTION_PREFIX = "mini-cursor-code-";

/** One collection per workspace, named from a hash of its real path (two checkouts are two indexes). */
export function codeCollectionName(root: string): string {
  return `${CODE_COLLECTION_PREFIX}${createHash("sha256").update(root).digest("hex").slice(0, 24)}`;
}

function metadataFor(root: string, embedder: Embedder, dimension: number): Record<string, string | number> {
  return { embedder: embedder.id, dimension, workspace: root, createdBy: "mini-cursor" };
}

async function create(client: ChromaClient, name: string, metadata: Record<string, string | number>): Promise<Collection> {
  return client.getOrCreateCollection({ name, embeddingFunction: null, metadata, configuration: { hnsw: { space: "cosine" } } });
}

/**
 * Opens (or creates) the workspace's code collection. An index built by another embedder is derived data that
 * cannot be compared with the current one, so unlike memory it is dropped and rebuilt rather than refused. An index
 * this embedder built is opened as it is when the embedder cannot tell its vector length without a request (a
 * remote one before its first answer): that request would be one more for a server that may be over its limits,
 * and a failure there made the whole index unavailable, words-only search included.
 */
export async function openCodeCollection(client: ChromaClient, root: string, embedder: Embedder): Promise<Collection> {
  const name = codeCollectionName(root);
  const known = embedder.knownDimension ? embedder.knownDimension() : await embedder.dimension();
  if (known === undefined) {
    const existing = await readCodeCollection(client, root);
    if (existing?.metadata?.embedder === embedder.id && typeof existing.metadata.dimension === "number") return existing;
  }
  const dimension = known ?? (await embedder.dimension());
  const metadata = metadataFor(root, embedder, dimension);
  const collection = await create(client, name, metadata);
  if (collection.metadata?.embedder === embedder.id && collection.metadata.dimension === dimension) return collection;
  logger.info(`index: ${root} was indexed with ${String(collection.metadata?.embedder)}; rebuilding it with ${embedder.id}`);
  await client.deleteCollection({ name });
  return create(client, name, metadata);
}

/** Deletes the workspace's index; false when there was none. */
export async function deleteCodeCollection(client: ChromaClient, root: string): Promise<boolean> {
  if (!(await readCodeCollection(client, root))) return false;
  await client.deleteCollection({ name: codeCollectionName(root) });
  return true;
}

/** The workspace's index as it is, for reading only (no embedder asked, nothing created or rebuilt); null when none. */
export async function readCodeCollection(client: ChromaClient, root: string): Promise<Collection | null> {
  return client.getCollection({ name: codeCollectionName(root), embeddingFunction: undefined }).catch(() => null);
}

/** Files and chunks in an index collection, from the chunk ids alone (a chunk's metadata carries its text). */
export async function indexCounts(collection: Collection): Promise<{ files: number; chunks: number }> {
  const { ids } = await collection.get({ include: [] });
  return { files: new Set(ids.map(fileKeyOfChunkId)).size, chunks: ids.length };
}
