import { randomBytes } from "node:crypto";
import fs from "node:fs";

/**
 * Replaces a small file whole: written to a temporary name of this process's own beside it, flushed to disk, then
 * renamed over the old one, so a reader (or a crash, or another process writing the same file) never sees half a
 * file. The one way our state files are written (undo's metadata, MCP trust, background processes, Chroma's state);
 * the workspace tools have their own, confined one (src/tools/atomic-write.ts).
 */
export function replaceFileSync(file: string, content: string, options: { mode?: number } = {}): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = fs.openSync(temporary, "w", options.mode ?? 0o644);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
