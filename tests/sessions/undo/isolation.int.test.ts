import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { exists, fingerprint, read, userGit, write } from "./helpers.js";

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

describe("the user's own git repository", () => {
  it("is untouched: HEAD, index, refs, config and status stay as they were", async () => {
    userGit(ws.root, ["init", "-q", "-b", "main"]);
    write(ws.root, ".gitignore", "*.log\nbuild/\n");
    write(ws.root, "src/app.ts", "export const app = 1;\n");
    write(ws.root, "README.md", "# demo\n");
    userGit(ws.root, ["add", "-A"]);
    userGit(ws.root, ["commit", "-q", "-m", "first"]);
    // Something staged and something untracked, so the index and status are not trivial.
    write(ws.root, "README.md", "# demo, staged edit\n");
    userGit(ws.root, ["add", "README.md"]);
    write(ws.root, "scratch.txt", "untracked by the user\n");
    const statusBefore = userGit(ws.root, ["status", "--porcelain=v1", "--untracked-files=all"]);
    const headBefore = userGit(ws.root, ["rev-parse", "HEAD"]);
    const dotGitBefore = fingerprint(path.join(ws.root, ".git"), []);

    // A shell that pointed git somewhere must not redirect the store to the user's repository.
    const env = { ...process.env, GIT_DIR: path.join(ws.root, ".git"), GIT_INDEX_FILE: path.join(ws.root, ".git", "index"), GIT_WORK_TREE: ws.root };
    const store = ShadowStore.open(ws.root, { env });
    await store.snapshotBefore("s1");
    write(ws.root, "src/app.ts", "export const app = 2;\n");
    write(ws.root, "src/extra.ts", "export {};\n");
    write(ws.root, "debug.log", "ignored\n");
    await store.snapshotAfter("s1");
    expect(await store.changes("s1")).toEqual([
      { path: "src/app.ts", change: "modified" },
      { path: "src/extra.ts", change: "created" },
    ]);
    await store.diff("s1");
    await store.undo("s1");

    expect(fingerprint(path.join(ws.root, ".git"), [])).toEqual(dotGitBefore);
    expect(userGit(ws.root, ["rev-parse", "HEAD"])).toBe(headBefore);
    expect(userGit(ws.root, ["status", "--porcelain=v1", "--untracked-files=all"])).toBe(statusBefore);
    expect(userGit(ws.root, ["for-each-ref", "--format=%(refname)"]).trim()).toBe("refs/heads/main");
  });
});

describe("what is tracked", () => {
  it("leaves out node_modules, .mini-cursor and whatever the workspace's .gitignore files ignore", async () => {
    write(ws.root, ".gitignore", "*.log\n/dist/\n");
    write(ws.root, "pkg/.gitignore", "cache/\n");
    write(ws.root, "src/a.ts", "a\n");
    write(ws.root, "old.log", "before\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");

    write(ws.root, "node_modules/left-pad/index.js", "module.exports = 1;\n");
    write(ws.root, "lib/node_modules/x/y.js", "nested\n");
    write(ws.root, "dist/bundle.js", "built\n");
    write(ws.root, "pkg/cache/blob", "cached\n");
    write(ws.root, "new.log", "log\n");
    write(ws.root, "old.log", "changed, but ignored\n");
    write(ws.root, ".mini-cursor/other-data.json", "{}\n");
    write(ws.root, "src/b.ts", "b\n");
    await store.snapshotAfter("s1");

    expect(await store.changes("s1")).toEqual([{ path: "src/b.ts", change: "created" }]);
    const report = await store.undo("s1");
    expect(report.removed).toEqual(["src/b.ts"]);
    // Not tracked, so neither removed nor restored: a documented limit.
    for (const file of ["node_modules/left-pad/index.js", "lib/node_modules/x/y.js", "dist/bundle.js", "pkg/cache/blob", "new.log"]) {
      expect(exists(ws.root, file)).toBe(true);
    }
    expect(read(ws.root, "old.log").toString()).toBe("changed, but ignored\n");
  });

  it("does not let a copied index carry files into a new session that the workspace now ignores", async () => {
    write(ws.root, "keep.txt", "k\n");
    write(ws.root, "secret.env", "TOKEN=1\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    write(ws.root, ".gitignore", "*.env\n");
    await store.snapshotAfter("s1");

    await store.snapshotBefore("s2");
    fs.rmSync(path.join(ws.root, "secret.env"));
    write(ws.root, "keep.txt", "k2\n");
    await store.snapshotAfter("s2");
    expect(await store.changes("s2")).toEqual([{ path: "keep.txt", change: "modified" }]);
  });

  it("treats file names as data: spaces, glob characters, leading dashes and non-ASCII", async () => {
    const names = ["with space.txt", "star*.txt", "[brackets].md", "-rf", "ünïcødé/文件.txt", "q?.txt", ":(exclude)x"];
    for (const name of names) write(ws.root, name, `${name}\n`);
    const original = fingerprint(ws.root);
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    for (const name of names) write(ws.root, name, "changed\n");
    write(ws.root, "new dir/ä*.txt", "new\n");
    await store.snapshotAfter("s1");

    const report = await store.undo("s1");
    expect(report.restored.sort()).toEqual([...names].sort());
    expect(fingerprint(ws.root)).toEqual(original);
  });
});
