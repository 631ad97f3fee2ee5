import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { read, write } from "./helpers.js";

let ws: TempWorkspace;
let store: ShadowStore;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "a.txt": "one\n" });
  store = ShadowStore.open(ws.root);
});
afterEach(async () => {
  await ws.cleanup();
});

const refs = () => execFileSync("git", ["--git-dir", store.gitDir, "for-each-ref", "refs/mini-cursor/"], { encoding: "utf8" });

describe("ShadowStore.fork", () => {
  it("the fork has the original's changes; its later snapshots and undo leave the original's refs alone", async () => {
    await store.snapshotBefore("old");
    write(ws.root, "a.txt", "two\n");
    await store.snapshotAfter("old");
    const diff = await store.diff("old");
    const oldRefs = refs();

    expect(await store.fork("old", "new")).toBe(true);
    expect(await store.diff("new")).toBe(diff);
    expect(await store.changes("new")).toEqual([{ path: "a.txt", change: "modified" }]);

    write(ws.root, "b.txt", "new file\n");
    await store.snapshotAfter("new");
    expect(await store.changes("new")).toEqual([
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "created" },
    ]);
    const undone = await store.undo("new");
    expect(undone.removed).toEqual(["b.txt"]);
    expect(read(ws.root, "a.txt").toString()).toBe("one\n");
    // The original still records exactly what it did, and is not undone.
    expect(await store.diff("old")).toBe(diff);
    expect((await store.session("old"))?.undoneAt).toBeUndefined();
    expect(
      refs()
        .split("\n")
        .filter((l) => l.includes("/old/"))
        .join("\n"),
    ).toBe(oldRefs.trim());
  });

  it("a session without a baseline has nothing to copy; an existing target is refused; forget removes a fork", async () => {
    expect(await store.fork("never", "copy")).toBe(false);
    await store.snapshotBefore("old");
    await store.snapshotBefore("taken");
    await expect(store.fork("old", "taken")).rejects.toThrow("the undo store already has a session taken");
    expect(await store.fork("old", "new")).toBe(true);
    await store.forget("new");
    expect(await store.session("new")).toBeUndefined();
    expect(await store.session("old")).toBeDefined();
  });
});

describe("ShadowStore.forget", () => {
  it("removes a session's refs, meta file and index, and nothing of another session's", async () => {
    await store.snapshotBefore("gone");
    write(ws.root, "a.txt", "two\n");
    await store.snapshotAfter("gone");
    await store.snapshotBefore("kept");
    const own = ["mini-cursor-sessions/gone.json", "index-gone"].map((f) => path.join(store.gitDir, f));
    for (const file of own) expect(fs.existsSync(file), file).toBe(true);
    const keptRefs = refs()
      .split("\n")
      .filter((l) => l.includes("/kept/"));

    expect(await store.forget("gone")).toBe(true);
    expect(refs()).not.toContain("/gone/");
    for (const file of own) expect(fs.existsSync(file), file).toBe(false);
    expect(
      refs()
        .split("\n")
        .filter((l) => l.includes("/kept/")),
    ).toEqual(keptRefs);
    expect(await store.session("kept")).toBeDefined();
    expect(await store.forget("gone")).toBe(false);
  });

  it("a workspace without an undo store gets none", async () => {
    expect(await store.forget("never")).toBe(false);
    expect(fs.existsSync(store.gitDir)).toBe(false);
  });
});
