import path from "node:path";
import { STATE_DIR_NAME } from "../core/index.js";

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
