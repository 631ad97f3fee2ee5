import { syntaxChunks } from "./syntax-chunks.js";
import { windowChunks } from "./text-chunks.js";
import type { Chunk } from "./types.js";

/** Beyond this, a JS/TS file is windowed rather than parsed: parsing megabytes costs more than it finds. */
const MAX_PARSE_CHARS = 1_000_000;

/** The chunks of one file: along its syntax for JS/TS, line windows for everything else. */
export function chunkFile(path: string, source: string): Chunk[] {
  const lines = source.split(/\r?\n/);
  if (source.length <= MAX_PARSE_CHARS) {
    const chunks = syntaxChunks(path, source, lines);
    if (chunks && chunks.length > 0) return chunks;
  }
  return windowChunks(path, lines);
}
