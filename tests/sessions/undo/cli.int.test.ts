import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffCommand, DIFF_HELP } from "../../../src/faces/cli/commands/diff.js";
import { undoCommand, UNDO_HELP } from "../../../src/faces/cli/commands/undo.js";
import { UsageError } from "../../../src/faces/cli/exit-codes.js";
import { openSessionDatabase } from "../../../src/sessions/database.js";
import { databasePath } from "../../../src/sessions/paths.js";
import { SessionLock } from "../../../src/sessions/session-lock.js";
import { GitUnavailableError } from "../../../src/sessions/undo/errors.js";
import { ShadowStore } from "../../../src/sessions/undo/shadow-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { exists, fakeIo, manualClock, read, write } from "./helpers.js";

const OLD = "20261130-041500-aaaa";
const NEW = "20261130-041700-bbbb";

let ws: TempWorkspace;
let clock: ReturnType<typeof manualClock>;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  clock = manualClock();
});

afterEach(async () => {
  await ws.cleanup();
});

/** Sessions in the session database, oldest first; the last is the latest. */
function addSessions(...ids: string[]): void {
  const database = openSessionDatabase(ws.root, clock);
  try {
    for (const id of ids) {
      database.sessions.create({ id, task: `task ${id}`, workspace: ws.root, model: "scripted", options: "{}" });
      clock.advance(1_000);
    }
  } finally {
    database.close();
  }
}

/** OLD edits a.txt; NEW (after it) creates new/b.txt and deletes gone.txt. */
async function twoSessionsWithChanges(): Promise<ShadowStore> {
  write(ws.root, "a.txt", "a0\n");
  write(ws.root, "gone.txt", "bye\n");
  const store = ShadowStore.open(ws.root);
  await store.snapshotBefore(OLD);
  write(ws.root, "a.txt", "a1\n");
  await store.snapshotAfter(OLD);
  await store.snapshotBefore(NEW);
  write(ws.root, "new/b.txt", "b\n");
  fs.rmSync(path.join(ws.root, "gone.txt"));
  await store.snapshotAfter(NEW);
  return store;
}

describe("mini-cursor diff", () => {
  it("shows the latest session of the session database: the list, then the diff", async () => {
    addSessions(OLD, NEW);
    await twoSessionsWithChanges();
    const io = fakeIo(ws.root);
    expect(await diffCommand([], io, clock)).toBe(0);
    const out = io.out();
    expect(out.startsWith(`Session ${NEW} changed 2 files:\n  deleted   gone.txt\n  created   new/b.txt\n\ndiff --git a/gone.txt b/gone.txt\n`)).toBe(true);
    expect(out).toContain("+++ b/new/b.txt\n@@ -0,0 +1 @@\n+b\n");
    expect(out).not.toContain("a.txt");
  });

  it("prints { session, changes, diff } with --json, for the session asked for", async () => {
    addSessions(OLD, NEW);
    await twoSessionsWithChanges();
    const io = fakeIo(ws.root);
    expect(await diffCommand([OLD, "--json", "--workspace", ws.root], fakeIo("/"), clock)).toBe(0);
    expect(await diffCommand([OLD, "--json"], io, clock)).toBe(0);
    const parsed = JSON.parse(io.out()) as { session: string; changes: unknown; diff: string };
    expect(parsed.session).toBe(OLD);
    expect(parsed.changes).toEqual([{ path: "a.txt", change: "modified" }]);
    expect(parsed.diff).toContain("-a0\n+a1\n");
  });

  it("falls back to the newest baseline of the undo store when there is no session database", async () => {
    await twoSessionsWithChanges();
    const io = fakeIo(ws.root);
    expect(await diffCommand(["--json"], io, clock)).toBe(0);
    expect((JSON.parse(io.out()) as { session: string }).session).toBe(NEW);
    // Looking must not create a session database.
    expect(fs.existsSync(databasePath(ws.root))).toBe(false);
  });

  it("says so when a session recorded no changes", async () => {
    addSessions(OLD, NEW);
    write(ws.root, "a.txt", "a0\n");
    await ShadowStore.open(ws.root).snapshotBefore(NEW);
    const io = fakeIo(ws.root);
    expect(await diffCommand([], io, clock)).toBe(0);
    expect(await diffCommand([OLD], io, clock)).toBe(0);
    expect(io.out()).toBe(`Session ${NEW} has no recorded changes.\nSession ${OLD} has no recorded changes.\n`);
  });

  it("rejects an unknown session, an invalid id, or a workspace without sessions with one usage line", async () => {
    await expect(diffCommand(["nope"], fakeIo(ws.root), clock)).rejects.toThrow(UsageError);
    await expect(diffCommand([], fakeIo(ws.root), clock)).rejects.toThrow(`no sessions in ${ws.root} yet`);
    addSessions(OLD);
    await expect(diffCommand(["20261130-000000-zzzz"], fakeIo(ws.root), clock)).rejects.toThrow(
      `no session "20261130-000000-zzzz" in ${ws.root} (see mini-cursor sessions)`,
    );
    await expect(diffCommand(["../etc"], fakeIo(ws.root), clock)).rejects.toThrow(UsageError);
    await expect(diffCommand([OLD, NEW], fakeIo(ws.root), clock)).rejects.toThrow(UsageError);
  });

  it("prints its help", async () => {
    const io = fakeIo(ws.root);
    expect(await diffCommand(["--help"], io, clock)).toBe(0);
    expect(io.out()).toBe(`${DIFF_HELP}\n`);
  });
});

describe("mini-cursor undo", () => {
  it("undoes the latest session, prints what it did, and says so the second time", async () => {
    addSessions(OLD, NEW);
    await twoSessionsWithChanges();
    const io = fakeIo(ws.root);
    expect(await undoCommand([], io, clock)).toBe(0);
    expect(io.out()).toBe(
      `Undid session ${NEW}: 1 restored, 1 removed, 0 skipped (and 1 empty folder removed).\n  restored  gone.txt\n  removed   new/\n  removed   new/b.txt\n`,
    );
    expect(read(ws.root, "gone.txt").toString()).toBe("bye\n");
    expect(exists(ws.root, "new")).toBe(false);
    expect(read(ws.root, "a.txt").toString()).toBe("a1\n");

    const again = fakeIo(ws.root);
    expect(await undoCommand([NEW], again, clock)).toBe(0);
    expect(again.out()).toMatch(new RegExp(`^Session ${NEW} was already undone at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; nothing to do\\.\\n$`));
  });

  it("reports skipped files with their reason and exits 1; --json gives the whole report", async () => {
    await twoSessionsWithChanges();
    write(ws.root, "new/b.txt", "the user edited this\n");
    const io = fakeIo(ws.root);
    expect(await undoCommand([NEW, "--json"], io, clock)).toBe(1);
    expect(JSON.parse(io.out())).toEqual({
      session: NEW,
      alreadyUndone: false,
      undoneAt: new Date(clock.now()).toISOString(),
      restored: ["gone.txt"],
      removed: [],
      skipped: [{ path: "new/b.txt", reason: "changed after the session (differs from the session's last snapshot)" }],
      unchanged: [],
    });
    expect(read(ws.root, "new/b.txt").toString()).toBe("the user edited this\n");
  });

  it("says there is nothing to undo for a session without recorded changes", async () => {
    addSessions(OLD);
    const io = fakeIo(ws.root);
    expect(await undoCommand([], io, clock)).toBe(0);
    expect(io.out()).toBe(`Session ${OLD} has no recorded changes; nothing to undo.\n`);
  });

  it("refuses to undo a session that is still running", async () => {
    addSessions(OLD);
    await twoSessionsWithChanges();
    const lock = SessionLock.acquire(ws.root, NEW);
    try {
      const io = fakeIo(ws.root);
      expect(await undoCommand([NEW], io, clock)).toBe(1);
      expect(io.err()).toBe(`mini-cursor: session ${NEW} is still running; stop it before undoing its changes\n`);
      expect(exists(ws.root, "new/b.txt")).toBe(true);
    } finally {
      lock.release();
    }
  });

  it("fails with a clear message when git is missing", async () => {
    // The session recorded changes (an undo store exists): undoing them needs git. Without a store there is nothing
    // to undo, which needs no git (and creates nothing).
    addSessions(OLD, NEW);
    await twoSessionsWithChanges();
    const io = fakeIo(ws.root, { PATH: path.join(ws.root, "no-bin") });
    const attempt = undoCommand([], io, clock);
    await expect(attempt).rejects.toBeInstanceOf(GitUnavailableError);
    await expect(attempt).rejects.toThrow(/^undo needs git, which was not found/);
  });

  it("rejects an unknown session with one usage line, and prints its help", async () => {
    await expect(undoCommand(["20261130-000000-zzzz"], fakeIo(ws.root), clock)).rejects.toThrow(UsageError);
    const io = fakeIo(ws.root);
    expect(await undoCommand(["-h"], io, clock)).toBe(0);
    expect(io.out()).toBe(`${UNDO_HELP}\n`);
  });
});
