import { createHash } from "node:crypto";
import { constants, existsSync, promises as fs, type Stats } from "node:fs";
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

/** Linux names what a descriptor refers to in /proc/self/fd; elsewhere only the lstat before the read applies. */
const CAN_VERIFY_OPENED = existsSync("/proc/self/fd");
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads `rel` only if what was opened is that very file of the workspace: the index reads in mini-cursor's own
 * process, outside the sandbox, while commands run, and a folder on the path swapped for a symlink meanwhile would
 * otherwise put a file from anywhere (a key, /etc/shadow) into codebase_search's snippets.
 */
async function readConfined(root: string, rel: string): Promise<{ text: string; stat: Stats } | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path.join(root, rel), READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (CAN_VERIFY_OPENED && (await fs.readlink(`/proc/self/fd/${handle.fd}`)) !== path.join(await fs.realpath(root), rel)) return undefined;
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return { text: await handle.readFile("utf8"), stat };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The file's text and new fingerprint when it changed since `known` was taken; "same" when it did not (a file
 * touched but not changed brings `known` up to its new size and mtime, in place: cheap to recheck later); "skip"
 * when it is not indexed (gone, not a regular file, too big, or skipped by its content).
 */
export async function readIfChanged(
  root: string,
  rel: string,
  known: Fingerprint | undefined,
): Promise<"same" | "skip" | { text: string; entry: Fingerprint }> {
  const abs = path.join(root, rel);
  let stat;
  try {
    stat = await fs.lstat(abs);
  } catch {
    return "skip";
  }
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return "skip";
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return "same";
  const read = await readConfined(root, rel);
  if (read === undefined) return "skip";
  const { text } = read;
  if (skipByContent(rel, text)) return "skip";
  const entry = { hash: hashOf(text), size: read.stat.size, mtimeMs: read.stat.mtimeMs };
  if (known && known.hash === entry.hash) {
    known.size = entry.size;
    known.mtimeMs = entry.mtimeMs;
    return "same";
  }
  return { text, entry };
}
