import path from "node:path";

/** Runtime data of a workspace lives under `<workspace>/.mini-cursor/` (git-ignored by our own .gitignore). */
export function dataDir(workspace: string): string {
  return path.join(workspace, ".mini-cursor");
}

export function databasePath(workspace: string): string {
  return path.join(dataDir(workspace), "sessions.sqlite");
}

export function locksDir(workspace: string): string {
  return path.join(dataDir(workspace), "locks");
}
