import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordingStore } from "../../src/sessions/recordings.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";

let ws: TempWorkspace;
let db: Database.Database;

beforeEach(async () => {
  ws = await makeTempWorkspace();
  db = new Database(path.join(ws.root, "sessions.sqlite"));
});
afterEach(async () => {
  db.close();
  await ws.cleanup();
});

const row = (role: string, size: number) => ({ role, step: "s1", model: "m", format: 1, request: Buffer.alloc(size, 1), response: Buffer.alloc(size, 2) });

describe("RecordingStore", () => {
  it("keeps calls in order per session, and a later writer (a resumed session) appends after them", () => {
    const store = new RecordingStore(db);
    const first = store.writer("a");
    expect(first.append(row("planner", 10))).toBe(true);
    expect(first.append(row("coder", 10))).toBe(true);
    store.writer("b").append(row("planner", 5));
    store.writer("a").append(row("reviewer", 10));
    expect(store.calls("a").map((c) => [c.seq, c.role])).toEqual([
      [1, "planner"],
      [2, "coder"],
      [3, "reviewer"],
    ]);
    expect(store.calls("a")[0]?.request).toEqual(Buffer.alloc(10, 1));
    expect(store.summary("a")).toEqual({ calls: 3, bytes: 60, truncated: false });
    expect(store.calls("b")).toHaveLength(1);
  });

  it("stops at the size cap: nothing more is written, the notice comes once, the summary says truncated (also for a later writer)", () => {
    const store = new RecordingStore(db);
    let notices = 0;
    const writer = store.writer("a", 100, () => (notices += 1));
    expect(writer.append(row("planner", 20))).toBe(true); // 40 bytes
    expect(writer.append(row("coder", 20))).toBe(true); // 80 bytes
    expect(writer.append(row("coder", 20))).toBe(false); // would be 120
    expect(writer.append(row("coder", 1))).toBe(false); // fits, but the recording has a hole now
    expect(notices).toBe(1);
    expect(store.calls("a")).toHaveLength(2);
    expect(store.summary("a")).toEqual({ calls: 2, bytes: 80, truncated: true });
    expect(store.writer("a", 100).append(row("planner", 1))).toBe(false);
  });

  it("a write the database refuses stops the recording, told once, leaving a gap-free prefix a later writer continues", () => {
    const store = new RecordingStore(db);
    const stops: unknown[] = [];
    const writer = store.writer("a", 1000, (why) => stops.push(why));
    expect(writer.append(row("planner", 2))).toBe(true);
    // Another connection takes the table away: the next insert fails for real.
    const other = new Database(path.join(ws.root, "sessions.sqlite"));
    other.exec("ALTER TABLE mc_model_calls RENAME TO mc_model_calls_away");
    expect(writer.append(row("coder", 2))).toBe(false);
    expect(writer.append(row("coder", 2))).toBe(false);
    expect(stops).toEqual([{ kind: "failed", detail: expect.stringMatching(/mc_model_calls/) }]);
    other.exec("ALTER TABLE mc_model_calls_away RENAME TO mc_model_calls");
    other.close();
    expect(store.calls("a").map((c) => [c.seq, c.role])).toEqual([[1, "planner"]]);
    expect(store.summary("a")).toEqual({ calls: 1, bytes: 4, truncated: true });
  });

  it("stops at the cap with its reason", () => {
    const store = new RecordingStore(db);
    const stops: unknown[] = [];
    store.writer("a", 10, (why) => stops.push(why)).append(row("planner", 20));
    expect(stops).toEqual([{ kind: "capped" }]);
  });

  it("copies a recording to another session id (fork), which then appends after it", () => {
    const store = new RecordingStore(db);
    store.writer("a").append(row("planner", 3));
    store.copy("a", "b");
    store.writer("b").append(row("coder", 3));
    expect(store.calls("a").map((c) => c.role)).toEqual(["planner"]);
    expect(store.calls("b").map((c) => [c.seq, c.role])).toEqual([
      [1, "planner"],
      [2, "coder"],
    ]);
    expect(store.summary("b")).toEqual({ calls: 2, bytes: 12, truncated: false });
  });

  it("notes a follow-up turn with its first call; copy and delete take the turns along", () => {
    const store = new RecordingStore(db);
    const writer = store.writer("a");
    writer.append(row("planner", 1));
    writer.append({ ...row("planner", 1), turn: "Also add farewell" });
    writer.append(row("coder", 1));
    expect(store.turns("a")).toEqual([{ firstSeq: 2, instruction: "Also add farewell" }]);
    store.copy("a", "b");
    expect(store.turns("b")).toEqual([{ firstSeq: 2, instruction: "Also add farewell" }]);
    store.delete("a");
    expect(store.turns("a")).toEqual([]);
  });

  it("deletes a session's recording and only that", () => {
    const store = new RecordingStore(db);
    store.writer("a").append(row("planner", 1));
    store.writer("b").append(row("planner", 1));
    store.delete("a");
    expect(store.calls("a")).toEqual([]);
    expect(store.summary("a")).toBeUndefined();
    expect(store.calls("b")).toHaveLength(1);
  });
});
