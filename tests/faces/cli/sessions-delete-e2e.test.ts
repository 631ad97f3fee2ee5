import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { useHangingCoderSession } from "./hanging-session.js";
import { snapshotOf } from "./session-snapshot.js";

/**
 * `sessions delete SESSION` removes a session that is not running with everything it owns (index row, checkpoint
 * history, recording, undo records) and nothing of another's. The built CLI against a scripted server.
 */
const { session, cli, rows, startStuckRun } = useHangingCoderSession();

/** Rows of any table of the SQLite file that name the session (whatever tables a later version adds). */
function rowsNaming(root: string, id: string): Record<string, number> {
  const db = new Database(path.join(root, ".mini-cursor", "sessions.sqlite"), { readonly: true });
  try {
    const found: Record<string, number> = {};
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      const columns = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => ["id", "thread_id", "session_id"].includes(c));
      for (const column of columns) {
        const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${name} WHERE ${column} = ?`).get(id) as { n: number };
        if (n > 0) found[`${name}.${column}`] = n;
      }
    }
    return found;
  } finally {
    db.close();
  }
}

describe("mini-cursor sessions delete", () => {
  it("removes a stopped session's rows, recording and undo records; another session stays byte-identical", async () => {
    // Stopped at an approval (stdin closed), then resumed with a changed setting: a pending approval and queued
    // settings, both writes of its thread, are among what it owns.
    expect((await cli(["run", "--approval", "ask", "Add greet with a test"])).code).toBe(130);
    const first = (await rows())[0]?.id ?? "";
    expect((await cli(["resume", first, "--max-steps", "9"])).code).toBe(130);
    expect((await rows())[0]?.status).toBe("awaiting_approval");
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const other = (await rows()).find((r) => r.id !== first)?.id ?? "";
    expect(other).not.toBe("");
    const otherBefore = snapshotOf(session.root, other);
    const owned = snapshotOf(session.root, first);
    expect((owned.checkpoints as unknown[]).length).toBeGreaterThan(3);
    expect((owned.calls as unknown[]).length).toBeGreaterThan(2);
    // LangGraph's id for writes of no task: the queued settings.
    expect((owned.writes as unknown[][]).filter((w) => w[3] === "00000000-0000-0000-0000-000000000000").map((w) => w[5])).toEqual(
      expect.arrayContaining(["limits", "safety"]),
    );
    expect(owned.refs).toContain(`refs/mini-cursor/${first}/before`);
    expect(owned.meta).not.toBeNull();
    expect(Object.keys(rowsNaming(session.root, first))).toEqual(
      expect.arrayContaining(["mc_sessions.id", "checkpoints.thread_id", "writes.thread_id", "mc_model_calls.session_id", "mc_recordings.session_id"]),
    );

    const deleted = await cli(["sessions", "delete", first]);
    expect(deleted.stderr).toBe("");
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(
      `Deleted session ${first} (${(owned.checkpoints as unknown[]).length} checkpoints, ${(owned.calls as unknown[]).length} recorded model calls, its undo records).\n`,
    );

    expect((await rows()).map((r) => r.id)).toEqual([other]);
    expect(rowsNaming(session.root, first)).toEqual({});
    expect(snapshotOf(session.root, first)).toMatchObject({ refs: "", meta: null });
    expect(fs.existsSync(path.join(session.root, ".mini-cursor", "shadow.git", `index-${first}`))).toBe(false);
    expect(snapshotOf(session.root, other)).toEqual(otherBefore);
    // The other session still works: its diff and a follow-up.
    expect((await cli(["diff", other])).code).toBe(0);
    expect((await cli(["resume", other, "-m", "Add farewell(name) in src/farewell.js"])).code).toBe(0);
    // The deleted one is gone for every command, and deleting it again is refused.
    expect((await cli(["resume", first, "-m", "more"])).code).toBe(2);
    const again = await cli(["sessions", "delete", first]);
    expect(again.code).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(`mini-cursor: no session "${first}" in ${fs.realpathSync(session.root)} (see mini-cursor sessions)\n`);
  });

  it("a running session is refused with one line, exit 2, and nothing deleted; once stopped, rm deletes it (--json)", async () => {
    const { run, id } = await startStuckRun();
    try {
      const before = snapshotOf(session.root, id);
      const refused = await cli(["sessions", "delete", id]);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toMatch(
        new RegExp(`^mini-cursor: session ${id} is running in process \\d+; stop it first \\(Ctrl-C stops it\\), then delete it\n$`),
      );
      expect(snapshotOf(session.root, id)).toEqual(before);
      run.child.kill("SIGTERM");
      expect((await run.done).code).toBe(130);

      const removed = await cli(["sessions", "rm", id, "--json"]);
      expect(removed.stderr).toBe("");
      expect(removed.code).toBe(0);
      expect(JSON.parse(removed.stdout)).toMatchObject({ type: "session_deleted", id, undo: true });
      expect(await rows()).toEqual([]);
      expect(rowsNaming(session.root, id)).toEqual({});
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
    }
  });

  it("bad input is one clear line, exit 2: a bogus id, no id, an unknown subcommand, a workspace without sessions", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const root = fs.realpathSync(session.root);
    const cases: [string[], string][] = [
      [["sessions", "delete", "no-such-session"], `no session "no-such-session" in ${root} (see mini-cursor sessions)`],
      [["sessions", "rm"], "sessions rm needs the session to delete (see mini-cursor sessions)"],
      [["sessions", "delete", "a", "b"], 'sessions delete takes one session id, got also "b"'],
      [["sessions", "purge"], 'unknown sessions command "purge"; mini-cursor sessions lists them, mini-cursor sessions delete SESSION deletes one'],
      [["sessions", "delete", "x", "--workspace", path.join(root, "src")], `no session "x" in ${path.join(root, "src")} (see mini-cursor sessions)`],
    ];
    for (const [args, line] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`mini-cursor: ${line}\n`);
    }
    expect(await rows()).toHaveLength(1);
    // A workspace without sessions gets no database from it.
    expect(fs.existsSync(path.join(root, "src", ".mini-cursor"))).toBe(false);
  });
});
