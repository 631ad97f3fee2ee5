import type { Chunk } from "./types.js";

/** Lines per window and overlap: a window fits a screen, the overlap keeps a paragraph cut at a border findable. */
export const WINDOW_LINES = 60;
const OVERLAP_LINES = 10;
/** A window also ends at this many characters, so one huge line (data, a long string) cannot make a giant chunk. */
const WINDOW_CHARS = 4_000;

/**
 * Splits text into overlapping line windows, preferring to end a window at a blank line (a paragraph or a gap
 * between definitions) in its last third. Used for files without a grammar and for oversized syntax chunks.
 */
export function windowChunks(path: string, lines: readonly string[], firstLine = 1, symbol = "", kind: Chunk["kind"] = "text"): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = Math.min(lines.length, start + WINDOW_LINES);
    let chars = 0;
    for (let i = start; i < end; i++) {
      chars += (lines[i]?.length ?? 0) + 1;
      if (chars > WINDOW_CHARS && i > start) {
        end = i;
        break;
      }
    }
    if (end < lines.length && end - start === WINDOW_LINES) {
      for (let i = end - 1; i > start + (WINDOW_LINES * 2) / 3; i--) {
        if (lines[i]?.trim() === "") {
          end = i + 1;
          break;
        }
      }
    }
    const text = lines.slice(start, end).join("\n");
    if (text.trim() !== "") chunks.push({ path, startLine: firstLine + start, endLine: firstLine + end - 1, symbol, kind, text });
    if (end >= lines.length) break;
    start = Math.max(start + 1, end - OVERLAP_LINES);
  }
  return chunks;
}
