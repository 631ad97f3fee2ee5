import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditFileTool, createListDirectoryTool, createReadFileTool, createSearchCodeTool, createWriteFileTool } from "../../src/tools/index.js";
import { callTool } from "./helpers.js";
import { DB, useWorkspace, ws } from "./agent-state-workspace.js";

/** mini-cursor's own state (.mini-cursor/: sessions, checkpoints, the undo store, locks) is not the model's to touch. */
useWorkspace();

const REFUSED = /is inside \.mini-cursor\/, mini-cursor's own state .* the tools never read or change it/;

describe("the agent's own state", () => {
  it("is refused by every file tool, and nothing in it changes", async () => {
    const root = ws.root;
    const calls = [
      await callTool(createWriteFileTool({ root }), { path: ".mini-cursor/sessions.sqlite", content: "garbage" }),
      await callTool(createWriteFileTool({ root }), { path: "state-link/locks/s1.lock", content: "planted" }),
      await callTool(createEditFileTool({ root }), { path: ".mini-cursor/shadow.git/HEAD", oldText: "main", newText: "evil" }),
      await callTool(createReadFileTool({ root }), { path: ".mini-cursor/sessions.sqlite" }),
      await callTool(createListDirectoryTool({ root }), { path: ".mini-cursor" }),
      await callTool(createSearchCodeTool({ root }), { pattern: "SQLite", path: ".mini-cursor" }),
    ];
    for (const call of calls) {
      expect(call.artifact.ok).toBe(false);
      expect(call.content).toMatch(REFUSED);
    }
    expect(await fs.readFile(path.join(root, ".mini-cursor/sessions.sqlite"), "utf8")).toBe(DB);
    expect(await fs.readFile(path.join(root, ".mini-cursor/shadow.git/HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    await expect(fs.access(path.join(root, ".mini-cursor/locks"))).rejects.toThrow();
    // A search of the whole workspace does not look inside either.
    const search = await callTool(createSearchCodeTool({ root }), { pattern: "SQLite" });
    expect(search.content).not.toContain("sessions.sqlite");
  });
});
