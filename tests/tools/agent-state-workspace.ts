import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

/** A workspace with mini-cursor's own state in it (a database, the undo store) and a symlink to that state. */
export let ws: TempWorkspace;
export const DB = "SQLite format 3\0 pretend database";

/** Registers the set-up and clean-up in the calling test file (call it once, at its top level). */
export function useWorkspace(): void {
  beforeEach(async () => {
    ws = await makeWorkspace();
    await writeFiles(ws.root, { ".mini-cursor/sessions.sqlite": DB, ".mini-cursor/shadow.git/HEAD": "ref: refs/heads/main\n", "src/a.ts": "a\n" });
    await fs.symlink(".mini-cursor", path.join(ws.root, "state-link"));
  });
  afterEach(async () => {
    await ws.cleanup();
  });
}
