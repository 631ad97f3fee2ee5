import type { FileHandle } from "node:fs/promises";
import { CAN_VERIFY_OPENED, openedPath, openForReading } from "./confined-fs.js";
import { errorCode, errorMessage } from "../../platform/error-info.js";

/** Bigger files are refused: reading them whole would flood memory and the model's context. */
export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

export type TextFileFailure = "missing" | "directory" | "not_a_file" | "binary" | "too_large" | "unreadable" | "changed";
export type TextFile = { ok: true; text: string; bytes: number } | { ok: false; reason: TextFileFailure; detail: string; bytes?: number };

const CHANGED = "changed while it was being opened (a folder on its path was replaced, e.g. by a symlink)";

/** Same heuristic as git and grep: a NUL byte near the start means binary. */
export function looksBinary(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The whole open file: `size` bytes as fstat said (more if it grew meanwhile), in one read when it did not. */
async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = size + 1; ; want = 64 * 1024) {
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(chunk, 0, want, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    // A short read of a regular file is its end.
    if (bytesRead < want || total > MAX_TEXT_FILE_BYTES) break;
  }
  return chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks);
}

/**
 * Reads a UTF-8 text file, classifying why it cannot be read so each tool can suggest its own next step.
 * The file is opened first (never through a symlink in its last component) and then examined through the open
 * descriptor. `allowOpened`, when given, is asked about the real path of what was opened before anything is read:
 * a folder on the way may have been swapped for a symlink after the path was checked.
 */
export async function readTextFile(target: string, allowOpened?: (real: string) => boolean): Promise<TextFile> {
  let handle: FileHandle;
  try {
    handle = await openForReading(target);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", detail: "does not exist" };
    // The checked path had no symlink at its end, so one there now was put there meanwhile.
    if (code === "ELOOP") return { ok: false, reason: "changed", detail: CHANGED };
    return { ok: false, reason: "unreadable", detail: `cannot be read (${code ?? errorMessage(error)})` };
  }
  try {
    if (allowOpened && CAN_VERIFY_OPENED && !allowOpened(await openedPath(handle))) {
      return { ok: false, reason: "changed", detail: CHANGED };
    }
    const stat = await handle.stat();
    if (stat.isDirectory()) return { ok: false, reason: "directory", detail: "is a directory" };
    // FIFOs and devices would block or never end.
    if (!stat.isFile()) return { ok: false, reason: "not_a_file", detail: "is not a regular file" };
    if (stat.size > MAX_TEXT_FILE_BYTES) {
      return { ok: false, reason: "too_large", detail: `is too large (${stat.size} bytes)`, bytes: stat.size };
    }
    const data = await readAll(handle, stat.size);
    if (looksBinary(data)) {
      return { ok: false, reason: "binary", detail: `looks like a binary file (${data.length} bytes)`, bytes: data.length };
    }
    return { ok: true, text: data.toString("utf8"), bytes: data.length };
  } catch (error) {
    return { ok: false, reason: "unreadable", detail: `cannot be read (${errorCode(error) ?? errorMessage(error)})` };
  } finally {
    await handle.close();
  }
}
