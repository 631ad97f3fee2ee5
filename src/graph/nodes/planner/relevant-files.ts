import type { CodebaseSearch } from "../../../retrieval/session-index.js";

const FILES = 5;

/**
 * The few files the codebase index ranks highest for the task, one line each with the symbols that matched
 * (`src/router.ts (createRouter, matchRoute)`). Asked on every planner turn, never stored in the graph state; empty
 * while the index is still building or when there is none, so no turn waits for it.
 */
export async function relevantFiles(index: CodebaseSearch | undefined, task: string): Promise<string[]> {
  if (!index) return [];
  const answer = await index.search({ query: task, limit: 20 }).catch(() => undefined);
  if (answer?.state !== "ready") return [];
  const byFile = new Map<string, Set<string>>();
  for (const hit of answer.hits) {
    if (!byFile.has(hit.path) && byFile.size >= FILES) continue;
    const symbols = byFile.get(hit.path) ?? new Set<string>();
    if (hit.symbol) symbols.add(hit.symbol);
    byFile.set(hit.path, symbols);
  }
  return [...byFile].map(([file, symbols]) => (symbols.size > 0 ? `${file} (${[...symbols].slice(0, 4).join(", ")})` : file));
}
