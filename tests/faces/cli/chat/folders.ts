import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../../helpers/temp-workspace.js";

/**
 * Folders for a test file's tests: a workspace with the given files, and a folder outside it (for symlinks that
 * point out of the workspace); both removed after each test.
 */
export function useFolders(): { workspace(files: Record<string, string>): Promise<string>; outside(): Promise<string> } {
  const made: TempWorkspace[] = [];
  const outsides: string[] = [];
  afterEach(async () => {
    for (const ws of made.splice(0)) await ws.cleanup();
    for (const dir of outsides.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  });
  return {
    async workspace(files) {
      const ws = await makeTempWorkspace(files);
      made.push(ws);
      return ws.root;
    },
    async outside() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-outside-"));
      outsides.push(dir);
      return dir;
    },
  };
}
