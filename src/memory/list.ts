import type { RecordSource } from "./chroma/rest.js";
import { fromChroma } from "./records.js";
import type { MemoryKind, MemoryRecord } from "./types.js";
import { and, kindsClause } from "./where.js";

export interface ListFilter {
  /** Only this workspace's memories; all workspaces when absent. */
  workspace?: string;
  kind?: MemoryKind;
  limit: number;
}

/** Memories newest first, from the `chromadb` client's collection or the light REST reader alike. */
export async function listMemories(source: RecordSource, filter: ListFilter): Promise<MemoryRecord[]> {
  const where = and(filter.workspace ? { workspace: filter.workspace } : undefined, kindsClause(filter.kind ? [filter.kind] : undefined));
  const result = await source.get({ ...(where ? { where } : {}), include: ["documents", "metadatas"] });
  return result.ids
    .map((id, i) => fromChroma(id, result.documents[i], result.metadatas[i]))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, filter.limit);
}
