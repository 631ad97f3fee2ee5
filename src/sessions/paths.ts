import path from "node:path";
// The leaf module, not the core barrel: the barrel loads zod, which `sessions` and `diff`/`undo` need not pay for.
import { STATE_DIR_NAME } from "../core/workspace.js";

/** Runtime data of a workspace lives under `<workspace>/.mini-cursor/` (git-ignored by our own .gitignore). */
export function dataDir(workspace: string): string {
  return path.join(workspace, STATE_DIR_NAME);
}

export function databasePath(workspace: string): string {
  return path.join(dataDir(workspace), "sessions.sqlite");
}

export function locksDir(workspace: string): string {
  return path.join(dataDir(workspace), "locks");
}
