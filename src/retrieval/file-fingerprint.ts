import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { MAX_FILE_BYTES, skipByContent } from "./skip-rules.js";

export const hashOf = (text: string): string => createHash("sha1").update(text).digest("hex");

/** What the index knows of a file's content: its hash, and the size and mtime it had when hashed. */
export interface Fingerprint {
  hash: string;
  size: number;
  mtimeMs: number;
}

/** Whether a file the index does not know yet may be indexed (a regular file, not too big), without reading it. */
export async function mayIndex(root: string, rel: string): Promise<boolean> {
  try {
    const stat = await fs.lstat(path.join(root, rel));
    return stat.isFile() && stat.size <= MAX_FILE_BYTES;
  } catch {
    return false;
  }
}

/**
 * The file's text and new fingerprint when it changed since `known` was taken; "same" when it did not (a file
 * touched but not changed brings `known` up to its new size and mtime, in place: cheap to recheck later); "skip"
 * when it is not indexed (gone, not a regular file, too big, or skipped by its content).
 */
export async function readIfChanged(root: string, rel: string, known: Fingerprint | undefined): Promise<"same" | "skip" | { text: string; entry: Fingerprint }> {
  const abs = path.join(root, rel);
  let stat;
  try {
    stat = await fs.lstat(abs);
  } catch {
    return "skip";
  }
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return "skip";
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return "same";
  let text: string;
  try {
    text = await fs.readFile(abs, "utf8");
  } catch {
    return "skip";
  }
  if (skipByContent(rel, text)) return "skip";
  const entry = { hash: hashOf(text), size: stat.size, mtimeMs: stat.mtimeMs };
  if (known && known.hash === entry.hash) {
    known.size = entry.size;
    known.mtimeMs = entry.mtimeMs;
    return "same";
  }
  return { text, entry };
}
