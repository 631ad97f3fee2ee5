import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Clock } from "../../src/platform/clock.js";
import { openSessionDatabase, type SessionDatabase } from "../../src/sessions/database.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";

class FakeClock implements Clock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
}

let ws: TempWorkspace;
const open: SessionDatabase[] = [];

function openDb(clock: Clock): SessionDatabase {
  const db = openSessionDatabase(ws.root, clock);
  open.push(db);
  return db;
}

beforeEach(async () => {
  ws = await makeTempWorkspace();
});

afterEach(async () => {
  for (const db of open.splice(0)) db.close();
  await ws.cleanup();
});

const base = (id: string) => ({ id, task: `task ${id}`, workspace: "/w", model: "m1", options: '{"maxSteps":3}' });

describe("openSessionDatabase", () => {
  it("creates the SQLite file under <workspace>/.mini-cursor/", () => {
    const db = openDb(new FakeClock(1));
    expect(fs.statSync(path.join(ws.root, ".mini-cursor", "sessions.sqlite")).isFile()).toBe(true);
    expect(db.db.name).toBe(path.join(ws.root, ".mini-cursor", "sessions.sqlite"));
    expect(db.db.pragma("journal_mode", { simple: true })).toBe("wal");
  });

  it("two opens of the same file see each other's rows", () => {
    const clock = new FakeClock(1000);
    const a = openDb(clock);
    const b = openDb(clock);
    a.sessions.create(base("from-a"));
    expect(b.sessions.get("from-a")?.task).toBe("task from-a");
    b.sessions.update("from-a", { status: "done" });
    expect(a.sessions.get("from-a")?.status).toBe("done");
  });

  it("keeps rows after close and reopen", () => {
    const first = openSessionDatabase(ws.root, new FakeClock(5));
    first.sessions.create(base("kept"));
    first.close();
    const second = openDb(new FakeClock(6));
    expect(second.sessions.get("kept")?.createdAt).toBe(5);
  });
});

describe("SessionStore", () => {
  let clock: FakeClock;
  let db: SessionDatabase;
  beforeEach(() => {
    clock = new FakeClock(1_700_000_000_000);
    db = openDb(clock);
  });

  it("creates a running row stamped with the clock", () => {
    const row = db.sessions.create(base("s1"));
    expect(row).toEqual({
      id: "s1",
      task: "task s1",
      workspace: "/w",
      model: "m1",
      status: "running",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
      options: '{"maxSteps":3}',
      turns: 1,
      instruction: null,
      worktree: null,
      branch: null,
    });
    expect(db.sessions.get("s1")).toEqual(row);
  });

  it("returns undefined for unknown ids and an empty store", () => {
    expect(db.sessions.get("nope")).toBeUndefined();
    expect(db.sessions.latest()).toBeUndefined();
    expect(db.sessions.list()).toEqual([]);
  });

  it("rejects a duplicate id", () => {
    db.sessions.create(base("dup"));
    expect(() => db.sessions.create(base("dup"))).toThrow();
  });

  it("updates chosen fields and the update time only", () => {
    db.sessions.create(base("s1"));
    clock.time += 500;
    db.sessions.update("s1", { status: "interrupted", inputTokens: 120, outputTokens: 30 });
    const row = db.sessions.get("s1");
    expect(row).toMatchObject({
      status: "interrupted",
      inputTokens: 120,
      outputTokens: 30,
      model: "m1",
      task: "task s1",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_500,
    });
    clock.time += 1;
    db.sessions.update("s1", { model: "m2" });
    expect(db.sessions.get("s1")).toMatchObject({ model: "m2", status: "interrupted", inputTokens: 120, updatedAt: 1_700_000_000_501 });
  });

  it("ignores updates of unknown sessions", () => {
    db.sessions.update("ghost", { status: "done" });
    expect(db.sessions.get("ghost")).toBeUndefined();
  });

  it("lists most recently updated first, and latest is the head of the list", () => {
    db.sessions.create(base("old"));
    clock.time += 10;
    db.sessions.create(base("mid"));
    clock.time += 10;
    db.sessions.create(base("new"));
    expect(db.sessions.list().map((r) => r.id)).toEqual(["new", "mid", "old"]);
    expect(db.sessions.latest()?.id).toBe("new");

    clock.time += 10;
    db.sessions.update("old", { status: "done" });
    expect(db.sessions.list().map((r) => r.id)).toEqual(["old", "new", "mid"]);
    expect(db.sessions.latest()?.id).toBe("old");
    expect(db.sessions.list(2).map((r) => r.id)).toEqual(["old", "new"]);
  });

  it("a session opened without a task (new) is listed but is not the latest; its first message sets its task", () => {
    db.sessions.create(base("tasked"));
    clock.time += 10;
    db.sessions.create({ ...base("opened"), task: "", status: "new" });
    expect(db.sessions.get("opened")).toMatchObject({ status: "new", task: "" });
    expect(db.sessions.list().map((r) => r.id)).toEqual(["opened", "tasked"]);
    expect(db.sessions.latest()?.id).toBe("tasked");
    clock.time += 10;
    db.sessions.update("opened", { task: "the task", status: "running" });
    expect(db.sessions.get("opened")).toMatchObject({ status: "running", task: "the task", options: '{"maxSteps":3}' });
    expect(db.sessions.latest()?.id).toBe("opened");
  });

  it("an update writes only its fields: another writer's change to other fields in between is kept", () => {
    db.sessions.create(base("shared"));
    const other = openDb(clock);
    other.sessions.update("shared", { status: "awaiting_approval" });
    db.sessions.update("shared", { options: '{"changed":true}' });
    expect(db.sessions.get("shared")).toMatchObject({ status: "awaiting_approval", options: '{"changed":true}' });
  });

  it("breaks ties in update time by insertion order, newest first", () => {
    db.sessions.create(base("first"));
    db.sessions.create(base("second"));
    expect(db.sessions.latest()?.id).toBe("second");
    expect(db.sessions.list().map((r) => r.id)).toEqual(["second", "first"]);
  });

  it("keeps a worktree session's folder and branch (run --worktree)", () => {
    db.sessions.create({ ...base("w"), worktree: "/w/.mini-cursor/worktrees/w", branch: "mini-cursor/w" });
    db.sessions.update("w", { status: "done" });
    expect(db.sessions.get("w")).toMatchObject({ status: "done", worktree: "/w/.mini-cursor/worktrees/w", branch: "mini-cursor/w" });
  });
});

describe("a session database made before the worktree columns", () => {
  it("gets them when opened, its rows kept with no worktree", () => {
    fs.mkdirSync(path.join(ws.root, ".mini-cursor"));
    const old = new Database(path.join(ws.root, ".mini-cursor", "sessions.sqlite"));
    old.exec(`CREATE TABLE mc_sessions (id TEXT PRIMARY KEY, task TEXT NOT NULL, workspace TEXT NOT NULL, model TEXT NOT NULL DEFAULT '', status TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
      options TEXT NOT NULL DEFAULT '{}', cost_usd REAL, turns INTEGER NOT NULL DEFAULT 1, instruction TEXT)`);
    old.prepare("INSERT INTO mc_sessions (id, task, workspace, status, created_at, updated_at) VALUES ('old', 't', '/w', 'done', 1, 1)").run();
    old.close();
    const db = openDb(new FakeClock(5));
    expect(db.sessions.get("old")).toMatchObject({ status: "done", worktree: null, branch: null });
    db.sessions.create({ ...base("w"), worktree: "/w/wt", branch: "mini-cursor/w" });
    expect(db.sessions.get("w")).toMatchObject({ worktree: "/w/wt", branch: "mini-cursor/w" });
  });
});
