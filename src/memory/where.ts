import type { Where } from "chromadb";
import type { MemoryKind } from "./types.js";

/** Chroma `where` filters for the memory metadata (type-only use of chromadb: nothing loads at run time). */
export function and(...clauses: (Where | undefined)[]): Where | undefined {
  const present = clauses.filter((c): c is Where => c !== undefined);
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : { $and: present };
}

export function kindsClause(kinds?: MemoryKind[]): Where | undefined {
  if (!kinds || kinds.length === 0) return undefined;
  return kinds.length === 1 ? { kind: kinds[0] ?? "note" } : { kind: { $in: kinds } };
}
