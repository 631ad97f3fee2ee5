import { promises as fs } from "node:fs";
import path from "node:path";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";

/**
 * Models often pass cwd "app" and still write "cd app && npm test", thinking from the workspace root; run
 * as written that would look for app/app. A leading `cd X &&` / `cd X;` is removed when X, taken from the
 * workspace root, is the cwd folder and X does not also exist below the cwd (then the cd may be meant).
 */
const LEADING_CD = /^\s*cd\s+(?:"([^"$`\\]+)"|'([^']+)'|([^\s;&|()<>$`'"\\]+))\s*(?:&&|;)\s*/;

export interface CdStripResult {
  command: string;
  /** The removed prefix, e.g. "cd app && ". */
  removed?: string;
}

export async function stripRedundantCd(command: string, root: string, cwdAbs: string): Promise<CdStripResult> {
  const match = LEADING_CD.exec(command);
  if (!match) return { command };
  const target = match[1] ?? match[2] ?? match[3];
  const rest = command.slice(match[0].length);
  if (target === undefined || rest.trim() === "" || target.startsWith("~")) return { command };
  const fromRoot = await resolveWorkspacePath(root, target);
  if (!fromRoot.ok || fromRoot.abs !== cwdAbs) return { command };
  const fromCwd = path.resolve(cwdAbs, target);
  if (fromCwd !== cwdAbs) {
    const isDir = await fs.stat(fromCwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) return { command };
  }
  return { command: rest, removed: match[0].trim() };
}
