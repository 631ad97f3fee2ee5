import { closeSync, fstatSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { CAN_VERIFY_OPENED, openedPathSync, openForReadingSync } from "../services/workspace-files/confined-fs.js";
import { splitLines } from "./lines.js";
import { MAX_TEXT_FILE_BYTES } from "../services/workspace-files/text-file.js";
import { isUsableRealPath } from "../services/workspace-files/workspace-path.js";

const CHUNK_BYTES = 1024 * 1024;

export interface LineMatch {
  /** Path relative to the root, "/"-separated, as ripgrep printed it. */
  file: string;
  line: number;
  text: string;
}

/** ripgrep strips a byte-order mark and decodes UTF-16 files that have one; do the same before comparing lines. */
function decode(data: Buffer): string {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return data.subarray(3).toString("utf8");
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder("utf-16le").decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder("utf-16be").decode(data.subarray(2));
  return data.toString("utf8");
}

/** Lines 1..`upTo` of the open file (fewer if it is shorter); a huge file is read only as far as needed. */
function readLines(fd: number, size: number, upTo: number): string[] {
  if (size <= MAX_TEXT_FILE_BYTES) return splitLines(decode(readFileSync(fd)));
  const chunks: Buffer[] = [];
  let newlines = 0;
  for (let position = 0; newlines < upTo;) {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    const bytesRead = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    chunks.push(chunk.subarray(0, bytesRead));
    for (let i = chunk.indexOf(10); i !== -1 && i < bytesRead; i = chunk.indexOf(10, i + 1)) newlines += 1;
  }
  return splitLines(decode(Buffer.concat(chunks))).slice(0, upTo);
}

/**
 * The lines of `rel` under `root`, read only if the file opened is exactly that path; undefined otherwise.
 * Synchronous on purpose: a search re-reads a dozen small files, and a promise round trip through the thread pool
 * for each open, readlink, stat, read and close cost several times the reads themselves (`npm run bench`).
 */
function verifiedLines(root: string, rel: string, upTo: number): string[] | undefined {
  const abs = path.join(root, rel);
  let fd: number;
  try {
    fd = openForReadingSync(abs);
  } catch {
    return undefined;
  }
  try {
    // Exactly this path: then it had no symlink anywhere, and the checks made on its name hold for its content.
    if (openedPathSync(fd) !== abs || !isUsableRealPath(root, abs)) return undefined;
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    return readLines(fd, stat.size, upTo);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * ripgrep opens files by path, so a folder swapped for a symlink while it searches can make it read files outside
 * the workspace. Each reported line is therefore checked against the file at the reported path, read through a
 * descriptor that is verified to be that very file: only lines really there are kept, in their original order.
 */
export function keepVerifiedMatches<M extends LineMatch>(root: string, matches: readonly M[]): { kept: M[]; dropped: number } {
  if (!CAN_VERIFY_OPENED) return { kept: [...matches], dropped: 0 };
  const lastLine = new Map<string, number>();
  for (const m of matches) lastLine.set(m.file, Math.max(lastLine.get(m.file) ?? 0, m.line));
  const linesOf = new Map<string, string[] | undefined>();
  for (const [file, upTo] of lastLine) linesOf.set(file, verifiedLines(root, file, upTo));
  const kept = matches.filter((m) => {
    const line = linesOf.get(m.file)?.[m.line - 1];
    return line !== undefined && line === m.text.replace(/\r$/, "");
  });
  return { kept, dropped: matches.length - kept.length };
}
