import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isInside as isInsideRoot } from "../../../src/platform/path-inside.js";
import { resolveWorkspacePath, toDisplayPath } from "../../../src/services/workspace-files/workspace-path.js";
import { makeWorkspace, writeFiles, type TempWorkspace } from "../../tools/helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFiles(ws.root, { "src/a.ts": "a\n" });
});
afterEach(async () => {
  await ws.cleanup();
});

async function expectOutside(input: string): Promise<string> {
  const result = await resolveWorkspacePath(ws.root, input);
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error("unreachable");
  expect(result.error).toContain("outside the workspace");
  expect(result.error).toContain("use a path inside it");
  return result.error;
}

describe("resolveWorkspacePath", () => {
  it("accepts relative, dotted and absolute paths inside the root", async () => {
    for (const input of ["src/a.ts", "./src/../src/a.ts", path.join(ws.root, "src/a.ts")]) {
      const result = await resolveWorkspacePath(ws.root, input);
      expect(result).toEqual({ ok: true, abs: path.join(ws.root, "src/a.ts"), rel: "src/a.ts" });
    }
    expect(await resolveWorkspacePath(ws.root, ".")).toEqual({ ok: true, abs: ws.root, rel: "." });
  });

  it("accepts files that do not exist yet", async () => {
    const result = await resolveWorkspacePath(ws.root, "new/dir/file.ts");
    expect(result).toEqual({ ok: true, abs: path.join(ws.root, "new/dir/file.ts"), rel: "new/dir/file.ts" });
  });

  it("refuses .. and absolute paths outside", async () => {
    const error = await expectOutside("../x");
    expect(error).toBe(`path "../x" is outside the workspace ${ws.root}; use a path inside it.`);
    await expectOutside("src/../../outside/secret.txt");
    await expectOutside(path.join(ws.outside, "secret.txt"));
    await expectOutside("/etc/passwd");
  });

  it("refuses symlinks to outside files and folders", async () => {
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "link-file"));
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    expect(await expectOutside("link-file")).toContain("through a symlink");
    await expectOutside("link-dir");
    await expectOutside("link-dir/secret.txt");
    // New file below a symlinked folder that points outside.
    await expectOutside("link-dir/new/file.txt");
    // A missing folder followed by ".." must not hide the symlink after it.
    await expectOutside("missing/../link-dir/new.txt");
  });

  it("refuses dangling symlinks whose target is outside, absolute or relative, also through a chain", async () => {
    await fs.symlink(path.join(ws.outside, "not-yet.txt"), path.join(ws.root, "dangling-abs"));
    await fs.symlink("../outside/not-yet.txt", path.join(ws.root, "dangling-rel"));
    await fs.symlink("hop2", path.join(ws.root, "hop1"));
    await fs.symlink("../outside/deeper/x.txt", path.join(ws.root, "hop2"));
    await expectOutside("dangling-abs");
    await expectOutside("dangling-rel");
    await expectOutside("hop1");
  });

  it("follows symlinks that stay inside and returns the real target", async () => {
    await fs.symlink("src", path.join(ws.root, "alias"));
    await fs.symlink("src/later.ts", path.join(ws.root, "dangling-inside"));
    expect(await resolveWorkspacePath(ws.root, "alias/a.ts")).toEqual({
      ok: true,
      abs: path.join(ws.root, "src/a.ts"),
      rel: "src/a.ts",
    });
    expect(await resolveWorkspacePath(ws.root, "dangling-inside")).toMatchObject({ ok: true, rel: "src/later.ts" });
  });

  it("reports symlink loops", async () => {
    await fs.symlink("loop-b", path.join(ws.root, "loop-a"));
    await fs.symlink("loop-a", path.join(ws.root, "loop-b"));
    const result = await resolveWorkspacePath(ws.root, "loop-a/x");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("too many levels of symbolic links");
  });

  it("refuses empty paths", async () => {
    const result = await resolveWorkspacePath(ws.root, "  ");
    expect(result.ok).toBe(false);
  });
});

describe("path helpers", () => {
  it("isInsideRoot does not confuse sibling prefixes", () => {
    expect(isInsideRoot("/a/work", "/a/work")).toBe(true);
    expect(isInsideRoot("/a/work", "/a/work/x")).toBe(true);
    expect(isInsideRoot("/a/work", "/a/workshop/x")).toBe(false);
    expect(isInsideRoot("/a/work", "/a/work/..x")).toBe(true);
    expect(isInsideRoot("/a/work", "/a")).toBe(false);
  });

  it("toDisplayPath is relative inside and absolute outside", () => {
    expect(toDisplayPath("/a/work", "/a/work")).toBe(".");
    expect(toDisplayPath("/a/work", "/a/work/src/x.ts")).toBe("src/x.ts");
    expect(toDisplayPath("/a/work", "/etc/passwd")).toBe("/etc/passwd");
  });
});
