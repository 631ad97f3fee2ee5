import { resolveIndexConfig, resolveMemoryConfig } from "../../../platform/config/memory-settings.js";
import { readCollection } from "../../../memory/chroma/rest.js";
import { DEFAULT_CHROMA_DATABASE, DEFAULT_CHROMA_TENANT } from "../../../platform/config/memory-settings.js";
import { fileKeyOfChunkId } from "../../../memory/retrieval/chunk-id.js";
import { codeCollectionName } from "../../../memory/retrieval/code-collection.js";
import { errorMessage } from "../../../platform/error-info.js";

/** What doctor says about the workspace's codebase index: whether sessions use it and what it holds. */
export interface IndexReport {
  enabled: boolean;
  reason?: string;
  collection: string;
  /** Files and chunks, when the local server runs and holds the index. */
  files?: number;
  chunks?: number;
  detail: string;
}

/**
 * Reports the index without starting anything: it reads the collection when the local Chroma server is already
 * running (memory's report found it), and otherwise says where it would be.
 */
export async function checkIndex(workspace: string, env: NodeJS.ProcessEnv, localServerUrl: string | undefined): Promise<IndexReport> {
  const collection = codeCollectionName(workspace);
  let settings;
  try {
    settings = resolveIndexConfig(env, resolveMemoryConfig(env));
  } catch (error) {
    return { enabled: false, reason: errorMessage(error), collection, detail: "off" };
  }
  if (!settings.enabled) return { enabled: false, reason: settings.reason, collection, detail: settings.reason };
  if (settings.chromaUrl)
    return { enabled: true, collection, detail: `on CHROMA_URL (collection ${collection}); mini-cursor index status shows what it holds` };
  if (!localServerUrl)
    return {
      enabled: true,
      collection,
      detail: `collection ${collection} on the local Chroma (not running now: built by sessions or mini-cursor index build)`,
    };
  try {
    const source = await readCollection(
      { url: localServerUrl, tenant: DEFAULT_CHROMA_TENANT, database: DEFAULT_CHROMA_DATABASE, authHeaders: () => ({}) },
      collection,
    );
    if (!source)
      return { enabled: true, collection, files: 0, chunks: 0, detail: "not built yet: a session builds it in the background, or mini-cursor index build" };
    // Ids only: a chunk's metadata carries its text, tens of megabytes for a large repository's index.
    const rows = await source.get({ include: [] });
    const files = new Set(rows.ids.map(fileKeyOfChunkId)).size;
    return { enabled: true, collection, files, chunks: rows.ids.length, detail: `${files} files, ${rows.ids.length} chunks in collection ${collection}` };
  } catch (error) {
    return { enabled: true, collection, detail: `could not read the index: ${errorMessage(error)}` };
  }
}
