import { afterEach, describe, expect, it } from "vitest";
import { ThreadProcesses } from "../../../src/tools/processes/thread-processes.js";

let threads: ThreadProcesses | undefined;
afterEach(async () => {
  await threads?.stopAll();
  threads = undefined;
});

const run = (threadId?: string) => (threadId === undefined ? { configurable: {} } : { configurable: { thread_id: threadId } });

describe("ThreadProcesses (the Studio graph's background processes)", () => {
  it("gives each thread its own registry, the same one for every call of a thread, and none outside a thread", () => {
    threads = new ThreadProcesses({ idleMs: 60_000 });
    const a = threads.forRun(run("a"));
    expect(a).toBeDefined();
    expect(threads.forRun(run("a"))).toBe(a);
    expect(threads.forRun(run("b"))).not.toBe(a);
    expect(threads.forRun(run())).toBeUndefined();
    expect(threads.forRun(undefined)).toBeUndefined();
  });

  it("starts a thread afresh after it was idle: its old registry is stopped", async () => {
    threads = new ThreadProcesses({ idleMs: 50 });
    const first = threads.forRun(run("a"));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = threads.forRun(run("a"));
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });
});
