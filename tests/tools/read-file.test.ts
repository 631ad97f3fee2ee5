import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

describe("read_file", () => {
  it("returns numbered lines", async () => {
    await writeFiles(ws.root, { "a.txt": "alpha\nbeta\r\ngamma" });
    const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: "a.txt" });
    expect(content).toBe("   1| alpha\n   2| beta\n   3| gamma");
    expect(artifact).toEqual({ ok: true });
  });

  it("reads a line range", async () => {
    await writeFiles(ws.root, { "a.txt": numbered(50) });
    const tool = createReadFileTool({ root: ws.root });
    const { content } = await callTool(tool, { path: "a.txt", startLine: 10, endLine: 12 });
    expect(content).toBe("  10| line 10\n  11| line 11\n  12| line 12\n[showing lines 10-12 of 50]");
    const tail = await callTool(tool, { path: "a.txt", startLine: 49, endLine: 400 });
    expect(tail.content).toBe("  49| line 49\n  50| line 50\n[showing lines 49-50 of 50]");
  });

  it("caps the output and says where to continue", async () => {
    await writeFiles(ws.root, { "big.txt": numbered(2311) });
    const tool = createReadFileTool({ root: ws.root, outputLimitChars: 1000 });
    const { content, artifact } = await callTool(tool, { path: "big.txt" });
    expect(artifact.ok).toBe(true);
    const match = /\[showing lines 1-(\d+) of 2311; call read_file with startLine=(\d+) to read more\]$/.exec(content);
    expect(match).not.toBeNull();
    const shownEnd = Number(match?.[1]);
    expect(Number(match?.[2])).toBe(shownEnd + 1);
    expect(content.length).toBeLessThan(1200);
    expect(content).toContain(`| line ${shownEnd}\n`);
    expect(content).not.toContain(`| line ${shownEnd + 1}\n`);
  });

  it("uses a default cap of 20000 characters", async () => {
    await writeFiles(ws.root, { "big.txt": numbered(5000) });
    const { content } = await callTool(createReadFileTool({ root: ws.root }), { path: "big.txt" });
    expect(content.length).toBeLessThanOrEqual(20_200);
    expect(content).toMatch(/call read_file with startLine=\d+ to read more\]$/);
  });

  it("refuses binary files", async () => {
    await writeFiles(ws.root, { "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const { content, artifact } = await callTool(createReadFileTool({ root: ws.root }), { path: "img.png" });
    expect(content).toMatch(/^Error: "img.png" looks like a binary file/);
    expect(artifact).toEqual({ ok: false });
  });

  it("explains directories, missing files, empty files and bad ranges", async () => {
    await writeFiles(ws.root, { "src/a.ts": "x\n", "empty.txt": "" });
    const tool = createReadFileTool({ root: ws.root });
    expect((await callTool(tool, { path: "src" })).content).toMatch(/^Error: "src" is a directory.*list_directory/);
    expect((await callTool(tool, { path: "nope.ts" })).content).toMatch(/^Error: file "nope.ts" does not exist.*list_directory.*search_code/);
    expect((await callTool(tool, { path: "empty.txt" })).content).toContain("is empty");
    expect((await callTool(tool, { path: "src/a.ts", startLine: 5 })).content).toMatch(/^Error: startLine 5 is past the end/);
    await writeFiles(ws.root, { "src/b.ts": "1\n2\n3\n" });
    expect((await callTool(tool, { path: "src/b.ts", startLine: 3, endLine: 2 })).content).toBe(
      "Error: endLine 2 is before startLine 3; call read_file with endLine >= startLine.",
    );
  });

  it("refuses paths that escape the workspace", async () => {
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "link-file"));
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    const tool = createReadFileTool({ root: ws.root });
    for (const input of ["../outside/secret.txt", path.join(ws.outside, "secret.txt"), "link-file", "link-dir/secret.txt"]) {
      const { content, artifact } = await callTool(tool, { path: input });
      expect(content).toMatch(/^Error: path ".*" (is|resolves through a symlink to .*, which is) outside the workspace/);
      expect(content).not.toContain("TOP SECRET");
      expect(artifact.ok).toBe(false);
    }
  });
});
