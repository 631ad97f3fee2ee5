import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/services/workspace-files/atomic-write.js";
import { createWriteFileTool } from "../../src/tools/write-file.js";
import { callTool, exists, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe("write_file", () => {
  it("creates a file and its parent folders", async () => {
    const { content, artifact } = await callTool(createWriteFileTool({ root: ws.root }), {
      path: "deep/er/new.ts",
      content: "one\ntwo\n",
    });
    expect(content).toBe('Created "deep/er/new.ts" (8 bytes, 2 lines).');
    expect(artifact).toEqual({ ok: true, filesChanged: ["deep/er/new.ts"] });
    expect(await fs.readFile(path.join(ws.root, "deep/er/new.ts"), "utf8")).toBe("one\ntwo\n");
  });

  it("overwrites atomically, keeps the file mode and leaves no temp files", async () => {
    await writeFiles(ws.root, { "run.sh": "old\n" });
    await fs.chmod(path.join(ws.root, "run.sh"), 0o755);
    const before = await fs.stat(path.join(ws.root, "run.sh"));
    const { content, artifact } = await callTool(createWriteFileTool({ root: ws.root }), { path: "run.sh", content: "new!\n" });
    expect(content).toBe('Overwrote "run.sh" (was 4 bytes; now 5 bytes, 1 lines).');
    expect(artifact.filesChanged).toEqual(["run.sh"]);
    const after = await fs.stat(path.join(ws.root, "run.sh"));
    // A rename puts a new inode in place: readers never see a half-written file.
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o755);
    expect(await fs.readdir(ws.root)).toEqual(["run.sh"]);
  });

  it("says when nothing changed", async () => {
    await writeFiles(ws.root, { "same.txt": "same\n" });
    const { content, artifact } = await callTool(createWriteFileTool({ root: ws.root }), { path: "same.txt", content: "same\n" });
    expect(content).toContain("nothing was changed");
    expect(artifact).toEqual({ ok: true, filesChanged: [] });
  });

  it("refuses directories and paths under a file", async () => {
    await writeFiles(ws.root, { "src/a.ts": "a" });
    const tool = createWriteFileTool({ root: ws.root });
    expect((await callTool(tool, { path: "src", content: "x" })).content).toMatch(/^Error: "src" is a directory/);
    expect((await callTool(tool, { path: "src/a.ts/b.ts", content: "x" })).content).toMatch(/^Error: cannot create "src\/a.ts\/b.ts"/);
  });

  it("refuses every kind of escape and writes nothing outside", async () => {
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "link-file"));
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    await fs.symlink(path.join(ws.outside, "planted.txt"), path.join(ws.root, "dangling"));
    const tool = createWriteFileTool({ root: ws.root });
    const attempts = [
      "../outside/planted.txt",
      path.join(ws.outside, "planted.txt"),
      "link-file",
      "link-dir/planted.txt",
      "link-dir/sub/planted.txt",
      "dangling",
    ];
    for (const input of attempts) {
      const { content, artifact } = await callTool(tool, { path: input, content: "pwned" });
      expect(content).toMatch(/^Error: path .* outside the workspace .*; use a path inside it\.$/);
      expect(artifact.ok).toBe(false);
    }
    expect(await fs.readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
    expect(await fs.readdir(ws.outside)).toEqual(["secret.txt"]);
  });

  it("writes through a symlink that stays inside, to its real target", async () => {
    await writeFiles(ws.root, { "real/file.txt": "old" });
    await fs.symlink("real", path.join(ws.root, "alias"));
    const { artifact } = await callTool(createWriteFileTool({ root: ws.root }), { path: "alias/file.txt", content: "new" });
    expect(artifact.filesChanged).toEqual(["real/file.txt"]);
    expect(await fs.readFile(path.join(ws.root, "real/file.txt"), "utf8")).toBe("new");
    expect((await fs.lstat(path.join(ws.root, "alias"))).isSymbolicLink()).toBe(true);
  });
});

describe("atomicWriteFile", () => {
  it("reports created vs overwritten and cleans up its temp file on failure", async () => {
    const target = path.join(ws.root, "x.txt");
    expect(await atomicWriteFile(ws.root, target, "héllo")).toEqual({ created: true, previousBytes: 0, bytes: 6 });
    expect(await atomicWriteFile(ws.root, target, "bye")).toEqual({ created: false, previousBytes: 6, bytes: 3 });
    await expect(atomicWriteFile(ws.root, path.join(ws.root, "x.txt", "under-a-file"), "x")).rejects.toThrow();
    expect(await exists(path.join(ws.root, "x.txt"))).toBe(true);
    expect(await fs.readdir(ws.root)).toEqual(["x.txt"]);
  });
});
