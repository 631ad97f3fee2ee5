import { hashOf } from "./file-fingerprint.js";

/** A chunk's id: its file's path hash (16 hex digits), the file's content hash (8), its position in the file. */
export function chunkId(path: string, contentHash: string, n: number): string {
  return `${hashOf(path).slice(0, 16)}-${contentHash.slice(0, 8)}-${n}`;
}

/** The same key for every chunk of one file, read from the id alone (counting files needs no metadata). */
export function fileKeyOfChunkId(id: string): string {
  const dash = id.indexOf("-");
  return dash < 0 ? id : id.slice(0, dash);
}
