import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteFileTool } from "../../src/tools/index.js";
import { resolveWorkspacePath } from "../../src/services/workspace-files/workspace-path.js";
import { callTool } from "./helpers.js";
import { useWorkspace, ws } from "./agent-state-workspace.js";

/** mini-cursor's own state (.mini-cursor/: sessions, checkpoints, the undo store, locks) is not the model's to touch. */
useWorkspace();

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
