import type { Chunk } from "./types.js";

/** Characters of a chunk that are embedded and stored (a huge minified-looking line must not blow up a request). */
export const MAX_CHUNK_CHARS = 1_500;
const SNIPPET_LINES = 6;
const SNIPPET_LINE_CHARS = 160;

/** What is embedded for a chunk: where it is and what it is called, then its text. */
export function embeddingText(chunk: Chunk): string {
  const head = chunk.symbol ? `${chunk.path} ${chunk.kind} ${chunk.symbol}` : chunk.path;
  return `${head}\n${chunk.text}`.slice(0, MAX_CHUNK_CHARS);
}

/** The first lines of a chunk, each cut short, for a search answer. */
export function snippetOf(text: string): string {
  return text
    .split("\n")
    .slice(0, SNIPPET_LINES)
    .map((l) => (l.length > SNIPPET_LINE_CHARS ? `${l.slice(0, SNIPPET_LINE_CHARS)}…` : l))
    .join("\n");
}

/** A path filter the model or the user gives: a file or a folder, workspace-relative. */
export function pathFilter(filter: string | undefined): ((p: string) => boolean) | undefined {
  const f = filter
    ?.trim()
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "");
  if (!f || f === ".") return undefined;
  return (p) => p === f || p.startsWith(`${f}/`);
}
