import path from "node:path";
import Database from "better-sqlite3";
import { Command, emptyCheckpoint, interrupt, StateGraph, StateSchema, START, END } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Clock } from "../../src/platform/clock.js";
import { openSessionDatabase, type SessionDatabase } from "../../src/sessions/database.js";
import { deleteSessionRows } from "../../src/sessions/delete-session.js";
import { forkSessionRows } from "../../src/sessions/fork-session.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";

const clock: Clock = { now: () => 1_800_000_000_000 };
let ws: TempWorkspace;
let database: SessionDatabase;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  database = openSessionDatabase(ws.root, clock);
});
afterEach(async () => {
  database.close();
  await ws.cleanup();
});

/** A real graph on the session database: it counts, then pauses for an answer (a pending interrupt write). */
function pausingGraph() {
  const State = new StateSchema({ count: z.number().default(0), answer: z.string().default("") });
  return new StateGraph(State)
    .addNode("add", (s: { count: number }) => ({ count: s.count + 1 }))
    .addNode("ask", () => ({ answer: String(interrupt({ question: "which way?" })) }))
    .addEdge(START, "add")
    .addEdge("add", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: database.checkpointer });
}

/** Every row stored for a thread, as bytes. */
function rowsOf(id: string) {
  const hex = (sql: string) => (database.db.prepare(sql).raw().all(id) as unknown[][]).map((r) => r.map((v) => (Buffer.isBuffer(v) ? v.toString("hex") : v)));
  return {
    index: hex("SELECT * FROM mc_sessions WHERE id = ?"),
    checkpoints: hex("SELECT * FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_ns, checkpoint_id"),
    writes: hex("SELECT * FROM writes WHERE thread_id = ? ORDER BY checkpoint_ns, checkpoint_id, task_id, idx"),
  };
}

describe("forkSessionRows", () => {
  it("copies the index row and the whole checkpoint history, pending interrupt included; the original's bytes do not change", async () => {
    database.sessions.create({ id: "old", task: "the task", workspace: ws.root, model: "m", options: "{}" });
    database.sessions.update("old", { status: "awaiting_approval", inputTokens: 12, turns: 2, instruction: "go on" });
    const graph = pausingGraph();
    await graph.invoke({ count: 0 }, { configurable: { thread_id: "old" } });
    const before = rowsOf("old");
    expect(before.writes.length).toBeGreaterThan(0);

    const later: Clock = { now: () => clock.now() + 60_000 };
    const copied = forkSessionRows(database.db, "old", "new", later);
    expect(copied.checkpoints).toBe(before.checkpoints.length);
    expect(rowsOf("old")).toEqual(before);
    expect(database.sessions.get("new")).toMatchObject({
      task: "the task",
      status: "awaiting_approval",
      inputTokens: 12,
      turns: 2,
      instruction: "go on",
      createdAt: later.now(),
      updatedAt: later.now(),
    });
    expect(database.sessions.latest()?.id).toBe("new");

    const state = await graph.getState({ configurable: { thread_id: "new" } });
    expect(state.values).toEqual({ count: 1, answer: "" });
    expect(state.tasks[0]?.interrupts[0]?.value).toEqual({ question: "which way?" });
    // Answering the fork's question finishes the fork only.
    await graph.invoke(new Command({ resume: "left" }), { configurable: { thread_id: "new" } });
    expect((await graph.getState({ configurable: { thread_id: "new" } })).values).toEqual({ count: 1, answer: "left" });
    expect((await graph.getState({ configurable: { thread_id: "old" } })).values).toEqual({ count: 1, answer: "" });
    expect(rowsOf("old")).toEqual(before);
  });

  it("rewrites a thread id a saver put in a checkpoint's metadata (LangGraph's server records one there)", async () => {
    database.sessions.create({ id: "old", task: "t", workspace: ws.root, model: "m", options: "{}" });
    const metadata = { source: "input" as const, step: -1, parents: {}, thread_id: "old", other: "old" };
    await database.checkpointer.put({ configurable: { thread_id: "old", checkpoint_ns: "" } }, emptyCheckpoint(), metadata);
    forkSessionRows(database.db, "old", "new", clock);
    const read = async (thread: string) => (await database.checkpointer.getTuple({ configurable: { thread_id: thread, checkpoint_ns: "" } }))?.metadata;
    expect(await read("old")).toMatchObject({ thread_id: "old", other: "old" });
    expect(await read("new")).toMatchObject({ thread_id: "new", other: "old" });
  });

  it("copies nothing when the original is unknown or the new id exists", () => {
    expect(() => forkSessionRows(database.db, "missing", "new", clock)).toThrow("no session missing to fork");
    expect(database.sessions.get("new")).toBeUndefined();
    database.sessions.create({ id: "a", task: "t", workspace: ws.root, model: "m", options: "{}" });
    database.sessions.create({ id: "b", task: "u", workspace: ws.root, model: "m", options: "{}" });
    expect(() => forkSessionRows(database.db, "a", "b", clock)).toThrow("session b already exists");
    expect(database.sessions.get("b")?.task).toBe("u");
  });

  it("deleteSessionRows removes a fork again (and only it); a session without a row deletes nothing", async () => {
    database.sessions.create({ id: "old", task: "t", workspace: ws.root, model: "m", options: "{}" });
    await pausingGraph().invoke({ count: 0 }, { configurable: { thread_id: "old" } });
    const before = rowsOf("old");
    forkSessionRows(database.db, "old", "new", clock);
    const deleted = deleteSessionRows(database.db, "new");
    expect(deleted).toEqual({ checkpoints: before.checkpoints.length, writes: before.writes.length, modelCalls: 0 });
    expect(rowsOf("new")).toEqual({ index: [], checkpoints: [], writes: [] });
    expect(rowsOf("old")).toEqual(before);
    expect(deleteSessionRows(database.db, "new")).toBeNull();
  });
});

describe("session index columns for follow-ups", () => {
  it("a database made before turns were recorded gets the columns; its rows have one turn and no instruction", () => {
    database.close();
    const file = path.join(ws.root, ".mini-cursor", "sessions.sqlite");
    const raw = new Database(file);
    raw.exec("DROP TABLE mc_sessions");
    raw.exec(`CREATE TABLE mc_sessions (id TEXT PRIMARY KEY, task TEXT NOT NULL, workspace TEXT NOT NULL, model TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}')`);
    raw.prepare("INSERT INTO mc_sessions (id, task, workspace, status, created_at, updated_at) VALUES ('s1', 'old task', '/w', 'done', 1, 1)").run();
    raw.close();
    database = openSessionDatabase(ws.root, clock);
    expect(database.sessions.get("s1")).toMatchObject({ task: "old task", turns: 1, instruction: null, costUsd: null });
    database.sessions.update("s1", { turns: 2, instruction: "next" });
    expect(database.sessions.get("s1")).toMatchObject({ turns: 2, instruction: "next" });
  });
});
