import { promises as fs } from "node:fs";
import { errorCode, errorMessage } from "./tool-result.js";

/** Bigger files are refused: reading them whole would flood memory and the model's context. */
export const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

export type TextFileFailure = "missing" | "directory" | "not_a_file" | "binary" | "too_large" | "unreadable";
export type TextFile =
  | { ok: true; text: string; bytes: number }
  | { ok: false; reason: TextFileFailure; detail: string; bytes?: number };

/** Same heuristic as git and grep: a NUL byte near the start means binary. */
export function looksBinary(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads a UTF-8 text file, classifying why it cannot be read so each tool can suggest its own next step. */
export async function readTextFile(abs: string): Promise<TextFile> {
  let size: number;
  try {
    const stat = await fs.stat(abs);
    if (stat.isDirectory()) return { ok: false, reason: "directory", detail: "is a directory" };
    // FIFOs and devices would block or never end.
    if (!stat.isFile()) return { ok: false, reason: "not_a_file", detail: "is not a regular file" };
    size = stat.size;
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", detail: "does not exist" };
    return { ok: false, reason: "unreadable", detail: `cannot be read (${code ?? errorMessage(error)})` };
  }
  if (size > MAX_TEXT_FILE_BYTES) {
    return { ok: false, reason: "too_large", detail: `is too large (${size} bytes)`, bytes: size };
  }
  let data: Buffer;
  try {
    data = await fs.readFile(abs);
  } catch (error) {
    return { ok: false, reason: "unreadable", detail: `cannot be read (${errorCode(error) ?? errorMessage(error)})` };
  }
  if (looksBinary(data)) {
    return { ok: false, reason: "binary", detail: `looks like a binary file (${data.length} bytes)`, bytes: data.length };
  }
  return { ok: true, text: data.toString("utf8"), bytes: data.length };
}
