import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWriteFileTool } from "../../src/tools/index.js";
import { resolveWorkspacePath } from "../../src/services/workspace-files/workspace-path.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

/** mini-cursor's own state (.mini-cursor/: sessions, checkpoints, the undo store, locks) is not the model's to touch. */
let ws: TempWorkspace;
const DB = "SQLite format 3\0 pretend database";
beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFiles(ws.root, { ".mini-cursor/sessions.sqlite": DB, ".mini-cursor/shadow.git/HEAD": "ref: refs/heads/main\n", "src/a.ts": "a\n" });
  await fs.symlink(".mini-cursor", path.join(ws.root, "state-link"));
});
afterEach(async () => {
  await ws.cleanup();
});

const REFUSED = /is inside \.mini-cursor\/, mini-cursor's own state .* the tools never read or change it/;

describe("the agent's own state", () => {
  it.each([".mini-cursor", ".mini-cursor/sessions.sqlite", "./.mini-cursor/shadow.git/HEAD", "src/../.mini-cursor/locks/x.lock", "state-link/sessions.sqlite"])(
    "is refused by the path check: %s",
    async (input) => {
      const result = await resolveWorkspacePath(ws.root, input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(REFUSED);
    },
  );

  it("leaves ordinary files alone", async () => {
    const write = await callTool(createWriteFileTool({ root: ws.root }), { path: "src/b.ts", content: "b\n" });
    expect(write.artifact.ok).toBe(true);
    expect(await fs.readFile(path.join(ws.root, "src/b.ts"), "utf8")).toBe("b\n");
  });
});
