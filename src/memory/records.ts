import type { Metadata } from "chromadb";
import { MEMORY_KINDS, type MemoryKind, type MemoryRecord } from "./types.js";

/** How a memory is stored in Chroma: the text as the document, everything else as flat metadata. */
export function toMetadata(r: Omit<MemoryRecord, "id" | "text">): Metadata {
  return {
    kind: r.kind,
    workspace: r.workspace,
    session: r.session,
    source: r.source,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    mergedCount: r.mergedCount,
  };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

function kindOf(value: unknown): MemoryKind {
  return MEMORY_KINDS.find((k) => k === value) ?? "note";
}

export function fromChroma(id: string, document: string | null | undefined, metadata: Metadata | null | undefined): MemoryRecord {
  const m = metadata ?? {};
  return {
    id,
    text: document ?? "",
    kind: kindOf(m.kind),
    workspace: str(m.workspace),
    session: str(m.session),
    source: str(m.source),
    createdAt: num(m.createdAt),
    updatedAt: num(m.updatedAt),
    mergedCount: num(m.mergedCount),
  };
}
