import type { MemoryHit } from "./types.js";

function day(ms: number): string {
  return ms > 0 ? new Date(ms).toISOString().slice(0, 10) : "undated";
}

/**
 * One line per memory, labelled with kind, scope and date. The text is quoted data: prompts that show these
 * lines say so, and newlines are flattened so a memory cannot pose as a new prompt section.
 */
export function formatHit(h: MemoryHit): string {
  const scope = h.sameWorkspace ? "this workspace" : `other workspace ${h.workspace}`;
  const source = h.source ? ` (source: ${h.source})` : "";
  return `[${h.kind}, ${scope}, ${day(h.updatedAt)}] ${h.text.replace(/\s*\n\s*/g, " ")}${source}`;
}

export function formatRecall(hits: MemoryHit[]): string[] {
  return hits.map(formatHit);
}
