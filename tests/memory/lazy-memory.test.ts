import { describe, expect, it } from "vitest";
import { LazyMemory } from "../../src/memory/lazy-memory.js";
import type { MemoryRuntime } from "../../src/memory/open-memory.js";
import { memoryOff } from "../../src/memory/types.js";

const opened = (): MemoryRuntime => ({
  store: { ...memoryOff, enabled: true, recall: async () => ["a memory"] },
  status: "open",
  close: async () => undefined,
});

describe("LazyMemory", () => {
  it("opens once, begun early or on first use, and a recall waits for it to open", async () => {
    let opens = 0;
    const memory = new LazyMemory(true, async () => ((opens += 1), opened()), { recallWaitMs: 300 });
    expect(memory.recallWaitMs).toBe(300);
    expect(memory.opened).toBeNull();
    const begun = memory.begin();
    expect(await memory.recall({ task: "t", workspace: "/w", limit: 5 })).toEqual(["a memory"]);
    await begun;
    expect(memory.opened?.status).toBe("open");
    expect(opens).toBe(1);
  });

  it("when memory is off in the settings, never opens and recalls nothing", async () => {
    let opens = 0;
    const memory = new LazyMemory(false, async () => ((opens += 1), opened()));
    expect(memory.enabled).toBe(false);
    expect(memory.recallWaitMs).toBeUndefined();
    expect(await memory.recall({ task: "t", workspace: "/w", limit: 5 })).toEqual([]);
    expect(opens).toBe(0);
  });
});
