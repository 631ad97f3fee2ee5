import { describe, expect, it } from "vitest";
import { postgresTarget } from "../../src/platform/config/database-settings.js";
import type { Clock } from "../../src/platform/clock.js";
import { openPostgresRecords } from "../../src/sessions/postgres/postgres-records.js";
import { openPostgresRunStore } from "../../src/sessions/postgres/postgres-run-store.js";
import { SCHEMA_VERSION } from "../../src/sessions/postgres/schema.js";
import { queueSettings } from "../../src/sessions/pending-settings.js";
import { SessionBusyError } from "../../src/sessions/session-lock.js";
import { DEFAULT_LIMITS } from "../../src/core/index.js";
import { TEST_PASSWORD, sharedPostgres } from "./postgres-server.js";

const postgres = sharedPostgres();

class FakeClock implements Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
const bytes = (n: number) => Buffer.alloc(n, 1);
const call = (role: string, size: number, turn?: string) => ({
  role,
  step: null,
  model: "m",
  format: 1,
  request: bytes(size),
  response: bytes(size),
  ...(turn ? { turn } : {}),
});

async function open(workspace = "/ws/a", clock = new FakeClock(1000)) {
  const url = await postgres.freshDatabase();
  const target = postgresTarget(url, "MINI_CURSOR_DATABASE_URL");
  return { url, target, records: await openPostgresRecords(target, workspace, clock) };
}

describe("PostgreSQL session records", () => {
  it("creates its versioned schema on first use and opens it again without changes", async () => {
    const { target, records } = await open();
    await records.close();
    const again = await openPostgresRecords(target, "/ws/a", new FakeClock(0));
    await again.close();
    const name = target.label.split("/")[1] ?? "";
    expect(await postgres.query(name, "SELECT version FROM mc_schema_version")).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it("migrates a version 1 database to the worktree columns, keeping its rows; a worktree session's row round-trips", async () => {
    const { target, records } = await open();
    await records.close();
    const name = target.label.split("/")[1] ?? "";
    // As mini-cursor with schema version 1 left it.
    await postgres.query(name, "ALTER TABLE mc_sessions DROP COLUMN worktree, DROP COLUMN branch");
    await postgres.query(name, "UPDATE mc_schema_version SET version = 1");
    await postgres.query(name, "INSERT INTO mc_sessions (id, task, workspace, status, created_at, updated_at) VALUES ('old', 't', '/ws/a', 'done', 1, 1)");
    const again = await openPostgresRecords(target, "/ws/a", new FakeClock(2000));
    try {
      expect(await postgres.query(name, "SELECT version FROM mc_schema_version")).toEqual([{ version: SCHEMA_VERSION }]);
      expect(await again.sessions.get("old")).toMatchObject({ id: "old", status: "done", worktree: null, branch: null });
      await again.sessions.create({
        id: "w1",
        task: "t",
        workspace: "/ws/a",
        model: "m",
        options: "{}",
        worktree: "/ws/a/.mini-cursor/worktrees/w1",
        branch: "mini-cursor/w1",
      });
      await again.sessions.update("w1", { status: "done" });
      expect(await again.sessions.get("w1")).toMatchObject({ status: "done", worktree: "/ws/a/.mini-cursor/worktrees/w1", branch: "mini-cursor/w1" });
      expect((await again.sessions.list()).map((r) => r.id)).toEqual(["w1", "old"]);
    } finally {
      await again.close();
    }
  });

  it("refuses a database migrated by a newer mini-cursor", async () => {
    const { target, records } = await open();
    await records.close();
    const name = target.label.split("/")[1] ?? "";
    await postgres.query(name, "UPDATE mc_schema_version SET version = version + 1");
    await expect(openPostgresRecords(target, "/ws/a", new FakeClock(0))).rejects.toThrow(/newer than this mini-cursor's/);
  });

  it("keeps rows per workspace: latest and list stay in this one, list --all sees every one", async () => {
    const clock = new FakeClock(1000);
    const { target, records } = await open("/ws/a", clock);
    const other = await openPostgresRecords(target, "/ws/b", clock);
    try {
      await records.sessions.create({ id: "a1", task: "t", workspace: "/ws/a", model: "m", options: "{}" });
      clock.advance(10);
      await other.sessions.create({ id: "b1", task: "t", workspace: "/ws/b", model: "m", options: "{}" });
      expect((await records.sessions.latest())?.id).toBe("a1");
      expect((await records.sessions.list()).map((r) => r.id)).toEqual(["a1"]);
      expect((await records.sessions.list({ all: true })).map((r) => r.id)).toEqual(["b1", "a1"]);
      await records.sessions.update("a1", { status: "done", inputTokens: 12, costUsd: 0.5, workspace: "/ws/b" });
      expect(await other.sessions.get("a1")).toMatchObject({ status: "done", inputTokens: 12, costUsd: 0.5, workspace: "/ws/b", turns: 1, instruction: null });
      // A session opened without a task (an editor's session/new) is listed, but latest skips it until it has one.
      clock.advance(10);
      await other.sessions.create({ id: "b2", task: "", workspace: "/ws/b", model: "m", options: "{}", status: "new" });
      expect((await other.sessions.list()).map((r) => [r.id, r.status])).toEqual([
        ["b2", "new"],
        ["b1", "running"],
        ["a1", "done"],
      ]);
      expect((await other.sessions.latest())?.id).toBe("b1");
      // Only the fields given are written: the options of one writer keep the status of another.
      await other.sessions.update("b2", { task: "now a task", status: "running" });
      await records.sessions.update("b2", { options: '{"x":1}' });
      expect(await other.sessions.get("b2")).toMatchObject({ task: "now a task", status: "running", options: '{"x":1}' });
      expect((await other.sessions.latest())?.id).toBe("b2");
    } finally {
      await other.close();
      await records.close();
    }
  });

  it("records model calls in order with their turns, stops at the cap, and copies them with a fork", async () => {
    const { records } = await open();
    try {
      await records.sessions.create({ id: "s", task: "t", workspace: "/ws/a", model: "m", options: "{}" });
      let capped = 0;
      const writer = await records.recordings.writer("s", 100, () => (capped += 1));
      expect(writer.append(call("planner", 10))).toBe(true);
      expect(writer.append(call("coder", 10, "more please"))).toBe(true);
      expect(writer.append(call("reviewer", 40))).toBe(false);
      expect(writer.append(call("reviewer", 1))).toBe(false);
      await writer.flush();
      expect(capped).toBe(1);
      expect((await records.recordings.calls("s")).map((c) => [c.seq, c.role, c.request.length])).toEqual([
        [1, "planner", 10],
        [2, "coder", 10],
      ]);
      expect(await records.recordings.turns("s")).toEqual([{ firstSeq: 2, instruction: "more please" }]);
      expect(await records.recordings.summary("s")).toEqual({ calls: 2, bytes: 40, truncated: true });
      // A resumed session appends after its earlier calls; one that reached its cap stays stopped.
      expect((await records.recordings.writer("s", 1000, () => {})).append(call("planner", 1))).toBe(false);
      await records.sessions.create({ id: "r", task: "t", workspace: "/ws/a", model: "m", options: "{}" });
      const earlier = await records.recordings.writer("r", 1000, () => {});
      earlier.append(call("planner", 1));
      await earlier.flush();
      const more = await records.recordings.writer("r", 1000, () => {});
      more.append(call("coder", 1));
      await more.flush();
      expect((await records.recordings.calls("r")).map((c) => [c.seq, c.role])).toEqual([
        [1, "planner"],
        [2, "coder"],
      ]);
      const copy = await records.forkSession("s", "f");
      expect(copy).toEqual({ checkpoints: 0, writes: 0 });
      expect((await records.recordings.calls("f")).length).toBe(2);
      expect(await records.recordings.turns("f")).toEqual([{ firstSeq: 2, instruction: "more please" }]);
      await expect(records.forkSession("s", "f")).rejects.toThrow(/already exists/);
      await expect(records.forkSession("nope", "g")).rejects.toThrow(/no session nope/);
      expect(await records.deleteSession("f")).toEqual({ checkpoints: 0, writes: 0, modelCalls: 2 });
      expect(await records.deleteSession("f")).toBeNull();
    } finally {
      await records.close();
    }
  });

  it("a row the database refuses stops the recording there, told once: no later row is written, the prefix is marked truncated", async () => {
    const { records } = await open();
    try {
      await records.sessions.create({ id: "s", task: "t", workspace: "/ws/a", model: "m", options: "{}" });
      const stops: unknown[] = [];
      const writer = await records.recordings.writer("s", 1000, (why) => stops.push(why));
      expect(writer.append(call("planner", 2))).toBe(true);
      // PostgreSQL text cannot hold a NUL character: the database itself refuses this row.
      expect(writer.append(call("co\u0000der", 2))).toBe(true);
      expect(writer.append(call("reviewer", 2))).toBe(true);
      await writer.flush();
      expect(stops).toEqual([{ kind: "failed", detail: expect.stringMatching(/0x00|invalid byte sequence/) }]);
      expect(writer.append(call("reviewer", 2))).toBe(false);
      await writer.flush();
      expect((await records.recordings.calls("s")).map((c) => [c.seq, c.role])).toEqual([[1, "planner"]]);
      expect(await records.recordings.summary("s")).toEqual({ calls: 1, bytes: 4, truncated: true });
    } finally {
      await records.close();
    }
  });

  it("locks a session for one holder at a time, names the holder, and frees it when released", async () => {
    const { target, records } = await open();
    try {
      const held = await records.lockSession("s");
      expect(await records.holder("s")).toMatch(new RegExp(`^process ${process.pid} on `));
      const again = records.lockSession("s");
      await expect(again).rejects.toBeInstanceOf(SessionBusyError);
      await expect(records.lockSession("s")).rejects.toThrow(
        new RegExp(`already running in process ${process.pid} on .*session database ${target.label.replace(/[./]/g, "\\$&")}`),
      );
      expect(await records.holder("other")).toBeNull();
      await held.release();
      expect(await records.holder("s")).toBeNull();
      const next = await records.lockSession("s");
      await next.release();
    } finally {
      await records.close();
    }
  });

  it("forks, queues settings on and deletes a session with checkpoints", async () => {
    const url = await postgres.freshDatabase();
    const target = postgresTarget(url, "MINI_CURSOR_DATABASE_URL");
    const store = await openPostgresRunStore(target, "/ws/a", new FakeClock(5));
    try {
      await store.sessions.create({ id: "s", task: "t", workspace: "/ws/a", model: "m", options: "{}" });
      const config = { configurable: { thread_id: "s", checkpoint_ns: "" } };
      const checkpoint = { v: 4, id: "1f0-cp", ts: new Date(0).toISOString(), channel_values: { task: "t" }, channel_versions: { task: 1 }, versions_seen: {} };
      const saved = await store.checkpointer.put(config, checkpoint, { source: "input", step: -1, parents: {}, thread_id: "s" } as never, { task: 1 });
      const safety = { approval: "auto", approveFileChanges: false, network: false, allow: [], deny: [] } as never;
      expect(await queueSettings(store, "s", { safety, limits: DEFAULT_LIMITS, workspace: "/ws/b" })).toBe(true);
      // Queued twice: the second replaces the first (the saver ignores a write it has at the same position).
      expect(await queueSettings(store, "s", { safety, limits: { ...DEFAULT_LIMITS, maxAgentRuns: 3 }, workspace: "/ws/c" })).toBe(true);
      const tuple = await store.checkpointer.getTuple(saved);
      const pending = Object.fromEntries((tuple?.pendingWrites ?? []).map(([, channel, value]) => [channel, value]));
      expect(pending).toMatchObject({ workspace: "/ws/c", limits: { maxAgentRuns: 3 } });
      expect(await store.forkSession("s", "f")).toEqual({ checkpoints: 1, writes: 3 });
      const forked = await store.checkpointer.getTuple({ configurable: { thread_id: "f", checkpoint_ns: "" } });
      expect(forked?.checkpoint.channel_values).toEqual({ task: "t" });
      expect(forked?.metadata).toMatchObject({ thread_id: "f" });
      expect(await store.deleteSession("s")).toEqual({ checkpoints: 1, writes: 3, modelCalls: 0 });
      expect(await store.checkpointer.getTuple(config)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("a server that is not there is one line naming the database, never the password", async () => {
    const target = postgresTarget(`postgres://postgres:${TEST_PASSWORD}@127.0.0.1:1/nowhere`, "MINI_CURSOR_DATABASE_URL");
    const failure = openPostgresRecords(target, "/ws/a", new FakeClock(0));
    await expect(failure).rejects.toThrow(
      /^cannot reach the session database 127\.0\.0\.1:1\/nowhere \(.*ECONNREFUSED.*\); start it or fix MINI_CURSOR_DATABASE_URL$/,
    );
    await expect(openPostgresRecords(target, "/ws/a", new FakeClock(0))).rejects.not.toThrow(TEST_PASSWORD);
  });

  it("a database that does not exist is refused with a line that says so", async () => {
    const target = postgresTarget(postgres.url("missing_db"), "MINI_CURSOR_DATABASE_URL");
    await expect(openPostgresRecords(target, "/ws/a", new FakeClock(0))).rejects.toThrow(
      /^the session database 127\.0\.0\.1:\d+\/missing_db refused the connection: database "missing_db" does not exist \(3D000\); fix MINI_CURSOR_DATABASE_URL$/,
    );
  });
});
