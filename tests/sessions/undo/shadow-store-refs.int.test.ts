import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { write } from "./helpers.js";

let ws: TempWorkspace;
let tools: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  tools = await makeTempWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
  await tools.cleanup();
});

/** A git that logs the arguments of every call (one line each), then runs the real git. */
function loggingGit(): { binary: string; calls: () => string[] } {
  const log = path.join(tools.root, "git-calls.log");
  const binary = path.join(tools.root, "git");
  fs.writeFileSync(binary, `#!/bin/sh\necho "$*" >> '${log}'\nexec git "$@"\n`, { mode: 0o755 });
  return { binary, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : []) };
}

/** Each git process costs the CLI's main thread a spawn, so the store asks git for a session's refs only once. */
describe("the snapshots of a running session", () => {
  it("read the session's refs from git once, then keep track of what they wrote", async () => {
    write(ws.root, "a.txt", "a0\n");
    const git = loggingGit();
    const store = ShadowStore.open(ws.root, { gitBinary: git.binary });
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1\n");
    await store.snapshotAfter("s1");
    write(ws.root, "b.txt", "b\n");
    await store.snapshotAfter("s1");
    await store.snapshotAfter("s1");
    expect(git.calls().filter((c) => c.split(" ").includes("for-each-ref"))).toHaveLength(1);
    // What it tracked is what git has: another store (another process) reads the same snapshots.
    const fresh = ShadowStore.open(ws.root);
    expect(await fresh.session("s1")).toEqual(await store.session("s1"));
    expect((await fresh.changes("s1")).map((c) => c.path).sort()).toEqual(["a.txt", "b.txt"]);
    // Undo still works from the store that recorded the session.
    const report = await store.undo("s1");
    expect(report.alreadyUndone).toBe(false);
    expect(fs.readFileSync(path.join(ws.root, "a.txt"), "utf8")).toBe("a0\n");
    expect(fs.existsSync(path.join(ws.root, "b.txt"))).toBe(false);
  });
});
