import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { exists, fingerprint, read, write } from "./helpers.js";

let ws: TempWorkspace;
let store: ShadowStore;

const BINARY = Buffer.from([0x00, 0x01, 0xff, 0x00, 0x0d, 0x0a, 0x00, 0x89, 0x50, 0x4e, 0x47]);

beforeEach(async () => {
  ws = await makeTempWorkspace();
  store = ShadowStore.open(ws.root);
});

afterEach(async () => {
  await ws.cleanup();
});

/** A varied workspace: the kinds of file git could get wrong. */
function seedWorkspace(root: string): void {
  write(root, "src/main.ts", "export const main = 1;\n");
  write(root, "docs/windows.txt", "line one\r\nline two\r\n");
  write(root, "assets/logo.bin", BINARY);
  write(root, "scripts/run.sh", "#!/bin/sh\necho hi\n", 0o755);
  write(root, "empty.txt", "");
  // Would make git convert line endings if the store honoured it.
  write(root, ".gitattributes", "* text=auto eol=crlf\n");
  write(root, "notes/lf.txt", "plain\nunix\n");
  fs.symlinkSync("src/main.ts", path.join(root, "link-to-main"));
  fs.mkdirSync(path.join(root, "was-empty"));
}

describe("snapshot and undo", () => {
  it("restores every modified and deleted file byte for byte, with its mode, and removes what the session created", async () => {
    seedWorkspace(ws.root);
    const original = fingerprint(ws.root);
    await store.snapshotBefore("s1");

    write(ws.root, "src/main.ts", "export const main = 2;\n");
    write(ws.root, "docs/windows.txt", "rewritten\n");
    write(ws.root, "assets/logo.bin", Buffer.from([0x00, 0x00, 0x00]));
    fs.chmodSync(path.join(ws.root, "scripts/run.sh"), 0o644);
    write(ws.root, "empty.txt", "no longer empty");
    write(ws.root, "notes/lf.txt", "plain\r\nwindows now\r\n");
    fs.rmSync(path.join(ws.root, "link-to-main"));
    write(ws.root, "link-to-main", "a file where a link was");
    write(ws.root, "src/new.ts", "new\n");
    write(ws.root, "generated/deep/tree/out.bin", BINARY);
    write(ws.root, "was-empty/now-full.txt", "x");
    await store.snapshotAfter("s1");

    const report = await store.undo("s1");

    expect(fingerprint(ws.root)).toEqual(original);
    expect(report.alreadyUndone).toBe(false);
    expect(report.skipped).toEqual([]);
    expect(report.restored.sort()).toEqual(
      ["assets/logo.bin", "docs/windows.txt", "empty.txt", "link-to-main", "notes/lf.txt", "scripts/run.sh", "src/main.ts"].sort(),
    );
    expect(report.removed).toEqual(
      ["generated/", "generated/deep/", "generated/deep/tree/", "generated/deep/tree/out.bin", "src/new.ts", "was-empty/now-full.txt"].sort(),
    );
    expect(read(ws.root, "assets/logo.bin").equals(BINARY)).toBe(true);
    expect(read(ws.root, "docs/windows.txt").toString("latin1")).toBe("line one\r\nline two\r\n");
    expect(fs.statSync(path.join(ws.root, "scripts/run.sh")).mode & 0o111).not.toBe(0);
    expect(fs.readlinkSync(path.join(ws.root, "link-to-main"))).toBe("src/main.ts");
    expect(exists(ws.root, "was-empty")).toBe(true);
  });

  it("brings back deleted files and folders, and takes away an executable bit the session added", async () => {
    write(ws.root, "lib/a/one.txt", "one\n");
    write(ws.root, "lib/a/two.bin", BINARY);
    write(ws.root, "tool.sh", "echo\n", 0o644);
    const original = fingerprint(ws.root);
    await store.snapshotBefore("s1");

    fs.rmSync(path.join(ws.root, "lib"), { recursive: true });
    fs.chmodSync(path.join(ws.root, "tool.sh"), 0o755);
    await store.snapshotAfter("s1");
    expect(await store.changes("s1")).toEqual([
      { path: "lib/a/one.txt", change: "deleted" },
      { path: "lib/a/two.bin", change: "deleted" },
      { path: "tool.sh", change: "modified" },
    ]);

    const report = await store.undo("s1");
    expect(report.restored).toEqual(["lib/a/one.txt", "lib/a/two.bin", "tool.sh"]);
    expect(fingerprint(ws.root)).toEqual(original);
  });

  it("handles a file replaced by a folder and a folder replaced by a file", async () => {
    write(ws.root, "config", "a file\n");
    write(ws.root, "data/rows.csv", "1,2\n");
    const original = fingerprint(ws.root);
    await store.snapshotBefore("s1");

    fs.rmSync(path.join(ws.root, "config"));
    write(ws.root, "config/settings.json", "{}\n");
    fs.rmSync(path.join(ws.root, "data"), { recursive: true });
    write(ws.root, "data", "now a file\n");
    await store.snapshotAfter("s1");

    const report = await store.undo("s1");
    expect(report.skipped).toEqual([]);
    expect(fingerprint(ws.root)).toEqual(original);
  });

  it("skips files changed after the session's last snapshot, says why, and restores the others", async () => {
    write(ws.root, "a.txt", "a0\n");
    write(ws.root, "b.txt", "b0\n");
    write(ws.root, "c.txt", "c0\n");
    write(ws.root, "d.txt", "d0\n");
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1 by session\n");
    write(ws.root, "b.txt", "b1 by session\n");
    write(ws.root, "created.txt", "by session\n");
    write(ws.root, "created-then-user.txt", "by session\n");
    fs.rmSync(path.join(ws.root, "c.txt"));
    fs.rmSync(path.join(ws.root, "d.txt"));
    await store.snapshotAfter("s1");

    // The user, after the session:
    write(ws.root, "b.txt", "b2 by user\n");
    write(ws.root, "created-then-user.txt", "user kept working on it\n");
    write(ws.root, "d.txt", "user brought it back differently\n");

    const report = await store.undo("s1");

    expect(report.restored).toEqual(["a.txt", "c.txt"]);
    expect(report.removed).toEqual(["created.txt"]);
    expect(report.skipped).toEqual([
      { path: "b.txt", reason: "changed after the session (differs from the session's last snapshot)" },
      { path: "created-then-user.txt", reason: "changed after the session (differs from the session's last snapshot)" },
      { path: "d.txt", reason: "created again after the session deleted it" },
    ]);
    expect(read(ws.root, "a.txt").toString()).toBe("a0\n");
    expect(read(ws.root, "b.txt").toString()).toBe("b2 by user\n");
    expect(read(ws.root, "c.txt").toString()).toBe("c0\n");
    expect(read(ws.root, "created-then-user.txt").toString()).toBe("user kept working on it\n");
    expect(read(ws.root, "d.txt").toString()).toBe("user brought it back differently\n");
    expect(exists(ws.root, "created.txt")).toBe(false);
  });

  it("counts a file the user already put back as unchanged, and a mode change after the session as skipped", async () => {
    write(ws.root, "a.txt", "a0\n");
    write(ws.root, "run.sh", "echo 0\n", 0o755);
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1\n");
    write(ws.root, "run.sh", "echo 1\n");
    await store.snapshotAfter("s1");
    write(ws.root, "a.txt", "a0\n");
    fs.chmodSync(path.join(ws.root, "run.sh"), 0o644);

    const report = await store.undo("s1");
    expect(report.unchanged).toEqual(["a.txt"]);
    expect(report.skipped).toEqual([{ path: "run.sh", reason: "its mode changed after the session" }]);
  });

  it("says a session was already undone, and records nothing more for it", async () => {
    write(ws.root, "a.txt", "a0\n");
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1\n");
    await store.snapshotAfter("s1");
    const first = await store.undo("s1");
    write(ws.root, "a.txt", "edited after the undo\n");
    await store.snapshotAfter("s1");

    const second = await store.undo("s1");
    expect(second).toEqual({ ...first, alreadyUndone: true });
    expect(read(ws.root, "a.txt").toString()).toBe("edited after the undo\n");
    expect((await store.session("s1"))?.undoneAt).toBe(first.undoneAt);
  });

  it("undoes against the working tree when the session never took an after snapshot", async () => {
    write(ws.root, "a.txt", "a0\n");
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1\n");
    write(ws.root, "b.txt", "b\n");
    expect(await store.changes("s1")).toEqual([
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "created" },
    ]);
    const report = await store.undo("s1");
    expect(report.restored).toEqual(["a.txt"]);
    expect(report.removed).toEqual(["b.txt"]);
  });
});

describe("sessions", () => {
  it("keeps sessions apart: undoing A leaves the files of B, which started after A ended", async () => {
    write(ws.root, "shared.txt", "v0\n");
    write(ws.root, "a-only.txt", "a0\n");
    await store.snapshotBefore("A");
    write(ws.root, "a-only.txt", "a1\n");
    write(ws.root, "shared.txt", "v1 by A\n");
    write(ws.root, "a-new.txt", "A\n");
    await store.snapshotAfter("A");

    await store.snapshotBefore("B");
    write(ws.root, "b-new.txt", "B\n");
    write(ws.root, "shared.txt", "v2 by B\n");
    await store.snapshotAfter("B");
    expect(await store.changes("B")).toEqual([
      { path: "b-new.txt", change: "created" },
      { path: "shared.txt", change: "modified" },
    ]);

    const report = await store.undo("A");
    expect(report.restored).toEqual(["a-only.txt"]);
    expect(report.removed).toEqual(["a-new.txt"]);
    expect(report.skipped.map((s) => s.path)).toEqual(["shared.txt"]);
    expect(read(ws.root, "b-new.txt").toString()).toBe("B\n");
    expect(read(ws.root, "shared.txt").toString()).toBe("v2 by B\n");
  });

  it("keeps a resumed session's first baseline", async () => {
    write(ws.root, "a.txt", "a0\n");
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a1 before the crash\n");
    write(ws.root, "b.txt", "b\n");
    // The session is interrupted, then resumed: the runner calls snapshotBefore again.
    await store.snapshotBefore("s1");
    write(ws.root, "a.txt", "a2 after resuming\n");
    await store.snapshotAfter("s1");

    expect(await store.changes("s1")).toEqual([
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "created" },
    ]);
    await store.undo("s1");
    expect(read(ws.root, "a.txt").toString()).toBe("a0\n");
    expect(exists(ws.root, "b.txt")).toBe(false);
  });

  it("reports the newest baseline as the latest session", async () => {
    expect(await store.latestSession()).toBeUndefined();
    await store.snapshotBefore("20261130-041500-aaaa");
    await store.snapshotBefore("20261130-041501-bbbb");
    expect(await store.latestSession()).toBe("20261130-041501-bbbb");
  });

  it("lets snapshots of different sessions, through different store objects, run at the same time", async () => {
    write(ws.root, "a.txt", "a\n");
    const other = ShadowStore.open(ws.root);
    await Promise.all([store.snapshotBefore("s1"), other.snapshotBefore("s2"), store.snapshotBefore("s3")]);
    write(ws.root, "b.txt", "b\n");
    await Promise.all([store.snapshotAfter("s1"), other.snapshotAfter("s2"), other.snapshotAfter("s3"), store.changes("s1")]);
    for (const id of ["s1", "s2", "s3"]) expect(await store.changes(id)).toEqual([{ path: "b.txt", change: "created" }]);
  });
});

describe("diff", () => {
  it("is a unified diff of the session's changes, with binary files noted", async () => {
    write(ws.root, "src/a.ts", "const a = 1;\n");
    write(ws.root, "gone.txt", "bye\n");
    write(ws.root, "img.bin", BINARY);
    await store.snapshotBefore("s1");
    write(ws.root, "src/a.ts", "const a = 2;\n");
    fs.rmSync(path.join(ws.root, "gone.txt"));
    write(ws.root, "img.bin", Buffer.concat([BINARY, BINARY]));
    write(ws.root, "src/b.ts", "export {};\n");
    await store.snapshotAfter("s1");

    const diff = await store.diff("s1");
    expect(diff).toContain("diff --git a/src/a.ts b/src/a.ts");
    expect(diff).toContain("-const a = 1;\n+const a = 2;\n");
    expect(diff).toContain("deleted file mode 100644");
    expect(diff).toContain("-bye\n");
    expect(diff).toContain("new file mode 100644");
    expect(diff).toContain("+export {};\n");
    expect(diff).toContain("Binary files a/img.bin and b/img.bin differ");
  });
});
