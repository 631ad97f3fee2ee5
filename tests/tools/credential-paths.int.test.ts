import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSearchCodeTool } from "../../src/tools/search-code.js";
import { callTool } from "./helpers.js";
import { useWorkspace, ws } from "./credential-home.js";

// search_code runs ripgrep: the other credential checks are unit tests (credential-paths.test.ts).
useWorkspace();

describe("file tools refuse credential files", () => {
  it("search_code neither searches nor reports credential files, and never follows symlinks", async () => {
    await fs.symlink(ws.outside, path.join(ws.root, "src", "outside-link"));
    const { content } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "FAKE|TOP SECRET" });
    expect(content).toContain(".env:1:");
    expect(content).toContain("src/app.ts:1:");
    const results = content.split("\n").slice(1).join("\n");
    expect(results).not.toMatch(/FAKE-(PRIVATE-KEY|AWS|NETRC)|TOP SECRET/);
    const scoped = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "FAKE", path: ".ssh" });
    expect(scoped.content).toContain("holds credentials");
  });
});
