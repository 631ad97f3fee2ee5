import { describe, expect, it } from "vitest";
import { serverScope, sessionScope } from "../../src/host/service-scope.js";
import { ManualTimers } from "../helpers/manual-timers.js";

/** A made-up service that counts how it is made and closed. */
function counted() {
  const made: string[] = [];
  const closed: string[] = [];
  let serial = 0;
  const make = (key: string) => {
    made.push(key);
    serial += 1;
    return { key, serial };
  };
  return { made, closed, make, close: (s: { key: string }) => void closed.push(s.key) };
}

describe("sessionScope", () => {
  it("keeps one service per key for the whole session, whatever the idle time, and closes it at the end", async () => {
    const c = counted();
    const kept = sessionScope({ sessionId: "s1", workspace: "/w" }).keep("diagnostics", c);
    const first = kept.get("/w");
    expect(kept.get("/w")).toBe(first);
    expect(await kept.hold("/w", async (s) => s)).toBe(first);
    // No timer: a long wait does not close it (the real timers run; a Node tick stands in for "later").
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.closed).toEqual([]);
    await kept.close();
    expect(c.made).toEqual(["/w"]);
    expect(c.closed).toEqual(["/w"]);
  });

  it("puts every run's background processes under the session's id", () => {
    const scope = sessionScope({ sessionId: "s1", workspace: "/w" });
    expect(scope.processKey({ configurable: { thread_id: "other" } })).toBe("s1");
    expect(scope.processKey(undefined)).toBe("s1");
    expect(scope.workspace).toBe("/w");
  });
});

describe("serverScope", () => {
  it("reuses a workspace's service across threads and closes it once idle for its kind's time", async () => {
    const timers = new ManualTimers();
    const c = counted();
    const kept = serverScope({ idleMs: { diagnostics: 1000 }, timers }).keep("diagnostics", c);
    // Two threads of one workspace use the same service; another workspace gets its own.
    const forThreadA = kept.get("/w");
    timers.advance(600);
    const forThreadB = kept.get("/w");
    expect(forThreadB).toBe(forThreadA);
    expect(kept.get("/other")).not.toBe(forThreadA);
    // Each use starts the idle time again: 999 ms after the last use it is still there.
    timers.advance(999);
    expect(c.closed).not.toContain("/w");
    timers.advance(1);
    await Promise.resolve();
    expect(c.closed).toContain("/w");
    // The next use makes a new one.
    const again = kept.get("/w");
    expect(again).not.toBe(forThreadA);
    expect(c.made.filter((k) => k === "/w")).toHaveLength(2);
  });

  it("never closes a service while work holds it; its idle time starts when the work ends", async () => {
    const timers = new ManualTimers();
    const c = counted();
    const kept = serverScope({ idleMs: { diagnostics: 1000 }, timers }).keep("diagnostics", c);
    let release: () => void = () => undefined;
    const held = kept.hold("/w", () => new Promise<void>((resolve) => (release = resolve)));
    timers.advance(5000);
    expect(c.closed).toEqual([]);
    release();
    await held;
    timers.advance(999);
    expect(c.closed).toEqual([]);
    timers.advance(1);
    await Promise.resolve();
    expect(c.closed).toEqual(["/w"]);
  });

  it("keeps a kind it names no idle time for until it is closed (MCP servers run for the server's lifetime)", async () => {
    const timers = new ManualTimers();
    const c = counted();
    const kept = serverScope({ idleMs: { diagnostics: 1000 }, timers }).keep("mcp", c);
    kept.get("/w");
    timers.advance(10 * 86_400_000);
    expect(c.closed).toEqual([]);
    await kept.close();
    expect(c.closed).toEqual(["/w"]);
  });

  it("puts background processes under each run's thread, and none outside a thread", () => {
    const scope = serverScope({ idleMs: {} });
    expect(scope.processKey({ configurable: { thread_id: "t1" } })).toBe("t1");
    expect(scope.processKey({ configurable: {} })).toBeUndefined();
    expect(scope.workspace).toBeUndefined();
  });
});
