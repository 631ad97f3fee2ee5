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
 * Memory opens in the background of a CLI session (Chroma starts with the first planner call). No planner turn waits
 * for it: turns that come while it is still opening go without memories, and the first turn that finds it open
 * recalls them, once.
 */
describe("recalling memories while memory opens in the background", () => {
  it("skips recall while memory is opening and recalls once at the first turn that finds it open", async () => {
    const events = new EventRecorder();
    const recalls: string[] = [];
    const memory: MemoryStore = {
      enabled: true,
      // Open once two steps have finished: the first two planner turns find it still opening.
      get opening() {
        return events.events.filter((e) => e.type === "step_finished").length < 2;
      },
      recall: async ({ task }) => {
        recalls.push(task);
        return [NOTE];
      },
      search: async () => [],
      remember: async () => undefined,
    };
    const read = { agent: "researcher", goal: "Read a.txt" };
    const models = scriptedModels({
      planner: [plan([read, read, read]), plan([read, read]), plan([read]), finishPlan("read it three times")],
      researcher: [0, 1, 2].flatMap(() => [
        calls({ name: "read_file", args: { path: "a.txt" } }),
        calls({ name: "submit_findings", args: { summary: "read it", findings: [] } }),
      ]),
    });
    const graph = testGraph({ models, events, memory, checkpointer: new MemorySaver() });
    const result = await graph.invoke(
      { task: "Read a.txt", workspace: ws.root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" } },
      { configurable: { thread_id: "t" }, recursionLimit: 100 },
    );
    expect(result.status).toBe("done");
    expect(recalls).toEqual(["Read a.txt"]);
    const text = (messages: BaseMessage[] | undefined) => (messages ?? []).map((m) => String(m.content)).join("\n");
    const prompts = models.seen["planner"] ?? [];
    expect(prompts).toHaveLength(4);
    expect(text(prompts[0])).not.toContain(NOTE);
    expect(text(prompts[1])).not.toContain(NOTE);
    expect(text(prompts[2])).toContain(NOTE);
    expect(text(prompts[3])).toContain(NOTE);
  });
});
