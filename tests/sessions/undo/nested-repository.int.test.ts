import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { userGit, write } from "./helpers.js";

/*
 * A command (sandboxed) can make a git repository inside the workspace, with a clean filter of its own in that
 * repository's config and a file git would have to re-read. Recorded as a gitlink in a session's index, every later
 * `git add --all` of the undo store (outside the sandbox) ran `git status` inside it, and so the command's program.
 */
let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  outside = await makeTempWorkspace();
});
afterEach(async () => {
  await Promise.all([ws.cleanup(), outside.cleanup()]);
});

function plantRepository(marker: string): void {
  const sub = path.join(ws.root, "sub");
  write(sub, ".gitattributes", "* filter=x\n");
  write(sub, "f.txt", "data\n");
  write(sub, "c.sh", `#!/bin/sh\necho ran >> '${marker}'\ncat\n`, 0o755);
  userGit(sub, ["init", "-q"]);
  userGit(sub, ["add", "-A"]);
  userGit(sub, ["commit", "-q", "-m", "s"]);
  userGit(sub, ["config", "filter.x.clean", "./c.sh"]);
  restat(sub);
}

/** f.txt no longer matches its index entry's time: git inside `sub` must re-read it through the filter. */
function restat(sub: string): void {
  execFileSync("touch", ["-d", "@1000000000", path.join(sub, "f.txt")]);
}

describe("a git repository made inside the workspace", () => {
  it("never makes the undo store run git (and its filters) inside it, over snapshots, diff and undo", async () => {
    const marker = path.join(outside.root, "ran.txt");
    write(ws.root, "a.txt", "a\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    plantRepository(marker);
    write(ws.root, "a.txt", "b\n");
    for (let i = 0; i < 3; i++) {
      await store.snapshotAfter("s1");
      restat(path.join(ws.root, "sub"));
    }
    await store.changes("s1");
    await store.diff("s1");
    await store.snapshotBefore("s2");
    restat(path.join(ws.root, "sub"));
    await store.snapshotAfter("s2");
    await store.undo("s1");
    expect(fs.existsSync(marker)).toBe(false);
    // The repository is the workspace's, left as it is: not recorded, so undo neither removes nor reports it.
    expect(fs.readFileSync(path.join(ws.root, "a.txt"), "utf8")).toBe("a\n");
    expect(fs.existsSync(path.join(ws.root, "sub", ".git"))).toBe(true);
  });
});
