import { describe, expect, it } from "vitest";
import { LazyMemory } from "../../src/memory/lazy-memory.js";
import type { MemoryRuntime } from "../../src/memory/open-memory.js";
import { memoryOff } from "../../src/memory/types.js";

const opened = (): MemoryRuntime => ({
  store: { ...memoryOff, enabled: true, recall: async () => ["a memory"] },
  status: "open",
  close: async () => undefined,
});

describe("LazyMemory.opening", () => {
  it("counts as opening before a background start has begun, so a planner turn does not open it and wait", async () => {
    let opens = 0;
    const memory = new LazyMemory(true, async () => ((opens += 1), opened()), { beginsInBackground: true });
    expect(memory.opening).toBe(true);
    expect(opens).toBe(0);
    const begun = memory.begin();
    expect(memory.opening).toBe(true);
    await begun;
    expect(memory.opening).toBe(false);
    expect(await memory.recall({ task: "t", workspace: "/w", limit: 5 })).toEqual(["a memory"]);
    expect(opens).toBe(1);
  });

  it("is not opening when memory is off, nor when it opens on first use (Studio)", async () => {
    expect(new LazyMemory(false, async () => opened(), { beginsInBackground: true }).opening).toBe(false);
    const onDemand = new LazyMemory(true, async () => opened());
    expect(onDemand.opening).toBe(false);
    // A first use opens it and waits: that is what a turn without a background start does.
    expect(await onDemand.recall({ task: "t", workspace: "/w", limit: 5 })).toEqual(["a memory"]);
  });
});
