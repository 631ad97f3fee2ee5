import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionDatabase } from "../../../src/sessions/database.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeTempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const clock = { now: () => 1_000 };

/** The session table as versions before cost tracking created it. */
function createOldDatabase(root: string): void {
  fs.mkdirSync(path.join(root, ".mini-cursor"), { recursive: true });
  const db = new Database(path.join(root, ".mini-cursor", "sessions.sqlite"));
  db.exec(`CREATE TABLE mc_sessions (
    id TEXT PRIMARY KEY, task TEXT NOT NULL, workspace TEXT NOT NULL, model TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}'
  )`);
  db.prepare(
    "INSERT INTO mc_sessions (id, task, workspace, status, created_at, updated_at, input_tokens) VALUES ('old', 'task', '/w', 'done', 1, 1, 42)",
  ).run();
  db.close();
}

describe("session cost in the session index", () => {
  it("adds the cost column to a database made before costs were recorded; old rows have an unknown cost", () => {
    createOldDatabase(ws.root);
    const first = openSessionDatabase(ws.root, clock);
    const second = openSessionDatabase(ws.root, clock);
    try {
      expect(first.sessions.get("old")).toMatchObject({ inputTokens: 42, costUsd: null });
      first.sessions.update("old", { costUsd: 0.0123 });
      expect(second.sessions.get("old")?.costUsd).toBe(0.0123);
    } finally {
      first.close();
      second.close();
    }
  });

  it("stores the cost and the run options (budget) of a session", () => {
    const db = openSessionDatabase(ws.root, clock);
    try {
      db.sessions.create({ id: "s1", task: "t", workspace: "/w", model: "m", options: '{"budget":{"tokens":10}}' });
      expect(db.sessions.get("s1")?.costUsd).toBeNull();
      db.sessions.update("s1", { status: "limit_reached", inputTokens: 9, outputTokens: 2, costUsd: 0, options: '{"budget":{"tokens":50}}' });
      expect(db.sessions.get("s1")).toMatchObject({ status: "limit_reached", costUsd: 0, options: '{"budget":{"tokens":50}}' });
    } finally {
      db.close();
    }
  });
});
