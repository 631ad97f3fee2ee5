import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readIfChanged } from "../../../src/memory/retrieval/file-fingerprint.js";
import { makeWorkspace, type TempWorkspace } from "../../tools/helpers.js";
import { startSwapper, type Swapper } from "../../tools/swapper.js";

/**
 * The index reads files in mini-cursor's own process, outside the sandbox, while commands and background processes
 * may run: a folder swapped for a symlink (by a real renameat2 swapper) must never make it read, and so show in
 * codebase_search snippets, a file outside the workspace.
 */
let ws: TempWorkspace | undefined;
let swapper: Swapper | undefined;

afterEach(async () => {
  await swapper?.stop();
  swapper = undefined;
  await ws?.cleanup();
  ws = undefined;
});

describe("readIfChanged under a symlink swap", () => {
  it("never reads through a folder swapped for a symlink to outside the workspace", async () => {
    ws = await makeWorkspace();
    await fs.mkdir(path.join(ws.root, "dir"));
    await fs.writeFile(path.join(ws.root, "dir", "secret.txt"), "ordinary text\n");
    await fs.symlink(ws.outside, path.join(ws.root, "swap"));
    swapper = await startSwapper(path.join(ws.root, "dir"), path.join(ws.root, "swap"));
    const texts: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      const read = await readIfChanged(ws.root, "dir/secret.txt", undefined);
      if (typeof read === "object") texts.push(read.text);
    }
    expect(await swapper.stop()).toBeGreaterThan(0);
    swapper = undefined;
    expect(texts.filter((t) => t.includes("TOP SECRET"))).toEqual([]);
    expect(texts.length).toBeGreaterThan(0);
  });

  it("does not read a folder that is a symlink by the time the file is read", async () => {
    ws = await makeWorkspace();
    await fs.symlink(ws.outside, path.join(ws.root, "dir"));
    expect(await readIfChanged(ws.root, "dir/secret.txt", undefined)).toBe("skip");
  });
});
