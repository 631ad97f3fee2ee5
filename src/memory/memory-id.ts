import { createHash } from "node:crypto";
import type { MemoryKind } from "./types.js";

/**
 * Same workspace, kind and text → same id, so an exact repeat can never pile up. Apart from records.ts so that
 * listing memories does not load node:crypto.
 */
export function memoryId(workspace: string, kind: MemoryKind, text: string): string {
  return `m-${createHash("sha256").update(`${workspace}\n${kind}\n${text}`).digest("hex").slice(0, 16)}`;
}
