import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createListDirectoryTool, MAX_LIST_ENTRIES } from "../../src/tools/list-directory.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe("list_directory", () => {
  it("shows a tree with folders marked and file sizes", async () => {
    await writeFiles(ws.root, { "README.md": "hello", "src/index.ts": "x".repeat(2048), "src/util/math.ts": "" });
    const { content, artifact } = await callTool(createListDirectoryTool({ root: ws.root }), {});
    expect(artifact).toEqual({ ok: true });
    const lines = content.split("\n");
    expect(lines[0]).toContain('Contents of "." (depth 2');
    expect(lines.slice(1, 5)).toEqual(["src/", "  util/ [not expanded]", "  index.ts (2.0 KB)", "README.md (5 B)"]);
    expect(content).toContain("call list_directory on one of them");
  });

  it("respects root and nested .gitignore files, negations, and always skips .git, node_modules, .mini-cursor", async () => {
    await writeFiles(ws.root, {
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "app/.gitignore": "generated/\nlocal.txt\n",
      "app/generated/out.js": "",
      "app/local.txt": "",
      "app/main.ts": "",
      "dist/bundle.js": "",
      "debug.log": "",
      "keep.log": "",
      ".git/HEAD": "ref",
      "node_modules/pkg/index.js": "",
      ".mini-cursor/state.db": "",
      "lib/node_modules/x.js": "",
      ".github/ci.yml": "",
    });
    const { content } = await callTool(createListDirectoryTool({ root: ws.root }), { depth: 3 });
    for (const shown of ["app/", "main.ts", "keep.log", ".gitignore", ".github/", "ci.yml", "lib/"]) expect(content).toContain(shown);
    for (const hidden of ["generated", "local.txt", "dist", "debug.log", "HEAD", "node_modules", "state.db", ".mini-cursor/"]) {
      expect(
        content
          .split("\n")
          .filter((l) => !l.startsWith("["))
          .join("\n"),
      ).not.toContain(hidden);
    }
    expect(content).toContain("4 entries ignored by .gitignore");
  });

  it("applies ancestor .gitignore files when listing a sub-folder", async () => {
    await writeFiles(ws.root, { ".gitignore": "*.tmp\n", "app/a.tmp": "", "app/b.ts": "" });
    const { content } = await callTool(createListDirectoryTool({ root: ws.root }), { path: "app" });
    expect(content).toContain("b.ts");
    expect(content).not.toContain("a.tmp");
  });

  it("shows the contents of an ignored folder that is asked for by name", async () => {
    await writeFiles(ws.root, { ".gitignore": "dist/\n", "dist/bundle.js": "x" });
    const { content } = await callTool(createListDirectoryTool({ root: ws.root }), { path: "dist" });
    expect(content).toContain("bundle.js (1 B)");
    expect(content).toContain('"dist" is ignored by .gitignore');
  });

  it("honours depth and caps it at 6", async () => {
    await writeFiles(ws.root, { "a/b/c/d/e/f/g/h.txt": "" });
    const tool = createListDirectoryTool({ root: ws.root });
    const one = await callTool(tool, { depth: 1 });
    expect(one.content).toContain("a/ [not expanded]");
    expect(one.content).not.toContain("b/");
    const deep = await callTool(tool, { depth: 10 });
    expect(deep.content).toContain("      f/ [not expanded]");
    expect(deep.content).not.toContain("g/");
    expect(deep.content).toContain("depth 10 was lowered to the maximum, 6");
  });

  it("caps the number of entries and says how to narrow", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < MAX_LIST_ENTRIES + 20; i += 1) files[`many/f${String(i).padStart(4, "0")}.txt`] = "";
    await writeFiles(ws.root, files);
    const { content } = await callTool(createListDirectoryTool({ root: ws.root }), {});
    expect(content).toContain(`[stopped after ${MAX_LIST_ENTRIES} entries; call list_directory on a sub-folder or with a smaller depth`);
    expect(content).toContain("… 21 more entries not shown");
  });

  it("shows symlinks without following them and refuses escapes", async () => {
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    const tool = createListDirectoryTool({ root: ws.root });
    const listing = await callTool(tool, {});
    expect(listing.content).toContain(`link-dir -> ${ws.outside} (symlink)`);
    expect(listing.content).not.toContain("secret.txt");
    for (const input of ["link-dir", "..", ws.outside]) {
      const { content, artifact } = await callTool(tool, { path: input });
      expect(content).toMatch(/^Error: path .* outside the workspace/);
      expect(artifact.ok).toBe(false);
    }
  });

  it("explains files, missing folders and empty folders", async () => {
    await writeFiles(ws.root, { "a.txt": "" });
    await fs.mkdir(path.join(ws.root, "empty"));
    const tool = createListDirectoryTool({ root: ws.root });
    expect((await callTool(tool, { path: "a.txt" })).content).toMatch(/^Error: "a.txt" is a file.*read_file/);
    expect((await callTool(tool, { path: "nope" })).content).toMatch(/^Error: folder "nope" does not exist/);
    expect((await callTool(tool, { path: "empty" })).content).toBe('Folder "empty" is empty.');
  });
});
