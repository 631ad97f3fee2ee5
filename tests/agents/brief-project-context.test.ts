import { afterEach, describe, expect, it } from "vitest";
import { projectContext, workspaceOutline } from "../../src/agents/brief.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";

let ws: TempWorkspace | null = null;
afterEach(async () => {
  await ws?.cleanup();
  ws = null;
});

describe("project context", () => {
  it("outlines two levels, respecting .gitignore and skipping node_modules and .git", async () => {
    ws = await makeTempWorkspace({
      ".gitignore": "dist/\n*.log\n",
      "package.json": "{}",
      "src/index.ts": "",
      "src/deep/inner/file.ts": "",
      "dist/out.js": "",
      "debug.log": "",
      "node_modules/x/index.js": "",
    });
    const outline = await workspaceOutline(ws.root);
    expect(outline.split("\n")).toEqual(["src/", "  deep/", "  index.ts", ".gitignore", "package.json"]);
  });

  it("caps a big workspace and says how to see more", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    ws = await makeTempWorkspace(files);
    const lines = (await workspaceOutline(ws.root)).split("\n");
    expect(lines).toHaveLength(61);
    expect(lines.at(-1)).toBe("… 40 more entries (use list_directory)");
  });

  it("includes the project's agent rules, capped", async () => {
    ws = await makeTempWorkspace({ "AGENTS.md": `Use pnpm.\n${"x".repeat(3_000)}` });
    const context = await projectContext(ws.root);
    expect(context).toContain("Project rules from AGENTS.md (follow them):\nUse pnpm.");
    expect(context).toContain("(truncated; read AGENTS.md for the rest)");
    expect(context.length).toBeLessThan(2_400);
  });
});
