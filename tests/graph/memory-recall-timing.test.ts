import type { BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder } from "../../src/core/index.js";
import type { MemoryStore } from "../../src/memory/types.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, finishPlan, plan, scriptedModels } from "./scripted-models.js";
import { testGraph } from "./wire.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const NOTE = "a.txt is generated: edit a.template instead";

/**
 * Memory opens as a session starts, and each planner turn waits for a recall at most memory.recallWaitMs: a recall that
 * answers in time reaches the first plan; one that does not is dropped (the first plan says so once) and the first
 * turn it answers in time for recalls, once.
 */
function memoryThat(answers: (call: number) => Promise<string[]>, recallWaitMs = 50): { memory: MemoryStore; recalls: string[] } {
  const recalls: string[] = [];
  const memory: MemoryStore = {
    enabled: true,
    recallWaitMs,
    recall: ({ task }) => {
      recalls.push(task);
      return answers(recalls.length);
    },
    search: async () => [],
    remember: async () => undefined,
  };
  return { memory, recalls };
}

const read = { agent: "researcher", goal: "Read a.txt" };
const researcherRuns = (n: number) =>
  Array.from({ length: n }).flatMap(() => [
    calls({ name: "read_file", args: { path: "a.txt" } }),
    calls({ name: "submit_findings", args: { summary: "read it", findings: [] } }),
  ]);
const text = (messages: BaseMessage[] | undefined) => (messages ?? []).map((m) => String(m.content)).join("\n");
const START = { task: "Read a.txt", limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" as const } };
const missedNotices = (events: EventRecorder) => events.events.filter((e) => e.type === "notice" && e.message.startsWith("Memory was not open within"));

describe("recalling memories within the wait", () => {
  it("puts memories into the first plan when the recall answers within the wait", async () => {
    const events = new EventRecorder();
    const { memory, recalls } = memoryThat(async () => [NOTE], 5_000);
    const models = scriptedModels({ planner: [plan([read]), finishPlan("read it")], researcher: researcherRuns(1) });
    const graph = testGraph({ models, events, memory, checkpointer: new MemorySaver() });
    const result = await graph.invoke({ ...START, workspace: ws.root }, { configurable: { thread_id: "t" }, recursionLimit: 100 });
    expect(result.status).toBe("done");
    expect(recalls).toEqual(["Read a.txt"]);
    const prompts = models.seen["planner"] ?? [];
    expect(text(prompts[0])).toContain(NOTE);
    expect(text(prompts[1])).toContain(NOTE);
    expect(missedNotices(events)).toEqual([]);
  });

  it("goes on without memories while the recall is late, says so once, and recalls at the first turn it answers in time", async () => {
    const events = new EventRecorder();
    // Memory opens once two steps have finished: the recalls of the first two planner turns never answer in time.
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const sink = {
      emit: (e: Parameters<EventRecorder["emit"]>[0]) => (
        events.emit(e),
        e.type === "step_finished" && events.events.filter((x) => x.type === "step_finished").length >= 2 && open()
      ),
    };
    const { memory, recalls } = memoryThat(async () => (await opened, [NOTE]));
    const models = scriptedModels({
      planner: [plan([read, read, read]), plan([read, read]), plan([read]), finishPlan("read it three times")],
      researcher: researcherRuns(3),
    });
    const graph = testGraph({ models, events: sink, memory, checkpointer: new MemorySaver() });
    const result = await graph.invoke({ ...START, workspace: ws.root }, { configurable: { thread_id: "t" }, recursionLimit: 100 });
    expect(result.status).toBe("done");
    expect(recalls).toEqual(["Read a.txt", "Read a.txt", "Read a.txt"]);
    const prompts = models.seen["planner"] ?? [];
    expect(prompts).toHaveLength(4);
    expect(text(prompts[0])).not.toContain(NOTE);
    expect(text(prompts[1])).not.toContain(NOTE);
    expect(text(prompts[2])).toContain(NOTE);
    expect(text(prompts[3])).toContain(NOTE);
    expect(missedNotices(events)).toHaveLength(1);
  });
});
