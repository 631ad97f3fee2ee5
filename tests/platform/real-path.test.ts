import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { followSymlinks, followSymlinksSync, MAX_SYMLINK_HOPS, realPath } from "../../src/platform/real-path.js";

let dir = "";
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mc-real-path-")));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("realPath", () => {
  it("resolves symlinks of what exists and says undefined for what does not", () => {
    fs.mkdirSync(path.join(dir, "real"));
    fs.symlinkSync(path.join(dir, "real"), path.join(dir, "link"));
    expect(realPath(path.join(dir, "link"))).toBe(path.join(dir, "real"));
    expect(realPath(path.join(dir, "link", "missing"))).toBeUndefined();
    fs.symlinkSync(path.join(dir, "nowhere"), path.join(dir, "dangling"));
    expect(realPath(path.join(dir, "dangling"))).toBeUndefined();
  });
});

describe.each([
  ["followSymlinks", followSymlinks],
  ["followSymlinksSync", async (start: string) => followSymlinksSync(start)],
])("%s", (_name, follow) => {
  it("keeps a path without links, and missing components as written", async () => {
    expect(await follow(path.join(dir, "a", "b.txt"))).toEqual({ real: path.join(dir, "a", "b.txt"), viaSymlink: false });
  });

  it("follows a symlinked folder to a file that does not exist yet", async () => {
    const outside = path.join(dir, "outside");
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(dir, "ws"));
    fs.symlinkSync(outside, path.join(dir, "ws", "out"));
    expect(await follow(path.join(dir, "ws", "out", "new.txt"))).toEqual({ real: path.join(outside, "new.txt"), viaSymlink: true });
  });

  it("follows a dangling symlink to where a write through it would create the file", async () => {
    fs.symlinkSync("../elsewhere/target", path.join(dir, "dangling"));
    expect((await follow(path.join(dir, "dangling")))?.real).toBe(path.join(path.dirname(dir), "elsewhere", "target"));
  });

  it("resolves a symlink before a later `..`, as the kernel does", async () => {
    fs.mkdirSync(path.join(dir, "deep", "er"), { recursive: true });
    fs.mkdirSync(path.join(dir, "q"));
    fs.symlinkSync(path.join(dir, "deep", "er"), path.join(dir, "q", "link"));
    // Lexically this is q/.mcp.json (path.join would say so); the kernel lands in deep/.mcp.json.
    expect((await follow(`${dir}/q/link/../.mcp.json`))?.real).toBe(path.join(dir, "deep", ".mcp.json"));
  });

  it("sees a link below a missing component when `..` climbs back", async () => {
    fs.symlinkSync("/etc", path.join(dir, "etc-link"));
    expect((await follow(`${dir}/missing/../etc-link/passwd`))?.real).toBe("/etc/passwd");
  });

  it("gives null on a symlink loop, and follows a chain up to the kernel's limit", async () => {
    fs.symlinkSync("b", path.join(dir, "a"));
    fs.symlinkSync("a", path.join(dir, "b"));
    expect(await follow(path.join(dir, "a", "x"))).toBeNull();
    fs.writeFileSync(path.join(dir, "end"), "");
    let previous = "end";
    for (let i = 0; i < MAX_SYMLINK_HOPS; i++) {
      fs.symlinkSync(previous, path.join(dir, `c${i}`));
      previous = `c${i}`;
    }
    expect((await follow(path.join(dir, previous)))?.real).toBe(path.join(dir, "end"));
    fs.symlinkSync(previous, path.join(dir, "one-more"));
    expect(await follow(path.join(dir, "one-more"))).toBeNull();
  });
});
