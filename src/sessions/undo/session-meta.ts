import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { replaceFileSync } from "../../platform/replace-file.js";

const skippedSchema = z.object({ path: z.string(), reason: z.string() });

const metaSchema = z.object({
  /** Empty folders when the baseline was taken: git does not record them, undo must not remove them. */
  emptyDirs: z.array(z.string()).default([]),
  undone: z
    .object({
      at: z.string(),
      restored: z.array(z.string()),
      removed: z.array(z.string()),
      skipped: z.array(skippedSchema),
      unchanged: z.array(z.string()).default([]),
    })
    .optional(),
});

export type SessionMeta = z.infer<typeof metaSchema>;

function metaFile(gitDir: string, sessionId: string): string {
  return path.join(gitDir, "mini-cursor-sessions", `${sessionId}.json`);
}

/** What the store knows about a session beyond its refs; an unreadable file counts as nothing known. */
export function readMeta(gitDir: string, sessionId: string): SessionMeta {
  try {
    return metaSchema.parse(JSON.parse(fs.readFileSync(metaFile(gitDir, sessionId), "utf8")));
  } catch {
    return { emptyDirs: [] };
  }
}

/** Written whole to a temporary name, then renamed over, so a crash never leaves half a file. */
export function writeMeta(gitDir: string, sessionId: string, meta: SessionMeta): void {
  const file = metaFile(gitDir, sessionId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, `${JSON.stringify(meta, null, 2)}\n`);
}

export function removeMeta(gitDir: string, sessionId: string): void {
  fs.rmSync(metaFile(gitDir, sessionId), { force: true });
}
