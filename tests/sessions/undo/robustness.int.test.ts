import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitUnavailableError, InvalidSessionIdError, UnknownSessionError } from "../../../src/sessions/undo/errors.js";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { UndoRecorder } from "../../../src/sessions/undo/undo-recorder.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { exists, read, write } from "./helpers.js";
import { deadPid } from "../../helpers/processes.js";

let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  outside = await makeTempWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

describe("session ids", () => {
  it("refuses ids that are not plain names", async () => {
    const store = ShadowStore.open(ws.root);
    for (const bad of ["../x", "a/b", "x.lock", "", "-x", "a..b", "a b"]) {
      await expect(store.snapshotBefore(bad)).rejects.toBeInstanceOf(InvalidSessionIdError);
    }
  });

  it("reports a session without a baseline as unknown", async () => {
    const store = ShadowStore.open(ws.root);
    await expect(store.changes("20261130-041500-a1b2")).rejects.toBeInstanceOf(UnknownSessionError);
    await expect(store.undo("20261130-041500-a1b2")).rejects.toThrow(/no undo snapshot for session 20261130-041500-a1b2/);
    await expect(store.snapshotAfter("20261130-041500-a1b2")).rejects.toBeInstanceOf(UnknownSessionError);
    expect(await store.session("20261130-041500-a1b2")).toBeUndefined();
  });
});

describe("without git", () => {
  it("says clearly that undo needs git", async () => {
    const missing = ShadowStore.open(ws.root, { gitBinary: path.join(outside.root, "no-such-git") });
    await expect(missing.snapshotBefore("s1")).rejects.toBeInstanceOf(GitUnavailableError);
    const noPath = ShadowStore.open(ws.root, { env: { PATH: outside.root } });
    await expect(noPath.changes("s1")).rejects.toThrow(/undo needs git, which was not found/);
  });

  it("lets the session go on: the recorder reports the problem once and stops recording", async () => {
    const problems: string[] = [];
    const recorder = new UndoRecorder(ShadowStore.open(ws.root, { env: { PATH: outside.root } }), "s1", (m) => problems.push(m));
    expect(await recorder.before()).toBe(false);
    expect(await recorder.after()).toBe(false);
    expect(await recorder.after()).toBe(false);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Undo is off for this session: undo needs git/);
  });

  it("records normally through the recorder when git is there", async () => {
    write(ws.root, "a.txt", "a0\n");
    const store = ShadowStore.open(ws.root);
    const recorder = new UndoRecorder(store, "s1", () => {
      throw new Error("no problem expected");
    });
    expect(await recorder.before()).toBe(true);
    write(ws.root, "a.txt", "a1\n");
    expect(await recorder.after()).toBe(true);
    expect(await store.changes("s1")).toEqual([{ path: "a.txt", change: "modified" }]);
  });
});

describe("the store's lock", () => {
  it("takes over a lock (and git's own lock files) left by a process that is gone", async () => {
    write(ws.root, "a.txt", "a0\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1\n");
    fs.writeFileSync(path.join(store.gitDir, "mini-cursor.lock"), String(await deadPid()));
    fs.writeFileSync(path.join(store.gitDir, "index-s1.lock"), "");

    await store.snapshotAfter("s1");
    expect(await store.changes("s1")).toEqual([{ path: "a.txt", change: "modified" }]);
    expect(exists(store.gitDir, "mini-cursor.lock")).toBe(false);
    expect(exists(store.gitDir, "index-s1.lock")).toBe(false);
  });
});

describe("a tampered shadow repository", () => {
  it("runs no hook, fsmonitor or filter command from its config, and converts nothing", async () => {
    write(ws.root, "a.txt", "a0\r\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("s1");
    const marker = path.join(outside.root, "ran");
    const script = path.join(outside.root, "evil.sh");
    fs.writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> "${marker}"\ncat\n`, { mode: 0o755 });
    fs.mkdirSync(path.join(outside.root, "hooks"));
    for (const hook of ["post-checkout", "post-index-change", "reference-transaction"]) {
      fs.copyFileSync(script, path.join(outside.root, "hooks", hook));
    }
    fs.appendFileSync(
      path.join(store.gitDir, "config"),
      `[core]\n\thooksPath = ${outside.root}/hooks\n\tfsmonitor = ${script}\n\tautocrlf = true\n[filter "evil"]\n\tclean = ${script}\n\tsmudge = ${script}\n`,
    );
    write(ws.root, ".gitattributes", "* filter=evil\n");

    write(ws.root, "a.txt", "a1\r\n");
    await store.snapshotAfter("s1");
    await store.diff("s1");
    await store.undo("s1");

    expect(fs.existsSync(marker)).toBe(false);
    expect(read(ws.root, "a.txt").toString("latin1")).toBe("a0\r\n");
  });
});

describe("several processes", () => {
  it("record their sessions in the same store at the same time", async () => {
    write(ws.root, "base.txt", "base\n");
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "record-session.ts");
    const run = (id: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, ws.root, id, "8"], { stdio: ["ignore", "ignore", "inherit"] });
        child.once("error", reject);
        child.once("close", resolve);
      });
    expect(await Promise.all([run("p1"), run("p2"), run("p3")])).toEqual([0, 0, 0]);
    const store = ShadowStore.open(ws.root);
    for (const id of ["p1", "p2", "p3"]) {
      const own = (await store.changes(id)).filter((c) => c.path.startsWith(`${id}-`));
      expect(own).toHaveLength(8);
    }
  });
});

describe("index files", () => {
  it("keeps only the most recently used ones; an older session still works without its own", async () => {
    write(ws.root, "a.txt", "a0\n");
    const store = ShadowStore.open(ws.root);
    await store.snapshotBefore("old");
    write(ws.root, "a.txt", "a1\n");
    await store.snapshotAfter("old");
    // File times cannot tell the order of use (a seeded index keeps its original's time; a busy machine ties them):
    // make the old session's index look the newest, as it can by chance.
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(`${store.gitDir}/index-old`, future, future);
    for (let i = 0; i < 10; i++) await store.snapshotBefore(`s${i}`);
    const indexes = fs.readdirSync(store.gitDir).filter((name) => name.startsWith("index-") && name !== "index-uses.json");
    expect(indexes.length).toBeLessThanOrEqual(8);
    expect(indexes).not.toContain("index-old");

    write(ws.root, "a.txt", "a2\n");
    await store.snapshotAfter("old");
    expect(await store.changes("old")).toEqual([{ path: "a.txt", change: "modified" }]);
    expect((await store.undo("old")).restored).toEqual(["a.txt"]);
    expect(read(ws.root, "a.txt").toString()).toBe("a0\n");
  });
});
