import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSearchCodeTool } from "../../src/tools/search-code.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

// search_code runs ripgrep: the other credential checks are unit tests (credential-paths.test.ts).
let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  // The workspace is the home folder, as when someone runs the agent in ~.
  vi.stubEnv("HOME", ws.root);
  vi.stubEnv("MINI_CURSOR_ALLOW_CREDENTIAL_FILES", "");
  await writeFiles(ws.root, {
    ".ssh/id_rsa": "FAKE-PRIVATE-KEY\n",
    ".aws/credentials": "aws_secret_access_key=FAKE-AWS\n",
    ".netrc": "machine example.com password FAKE-NETRC\n",
    ".env": "API_URL=http://localhost FAKE-ENV\n",
    "src/app.ts": "const x = 'FAKE-CODE';\n",
  });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await ws.cleanup();
});

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
