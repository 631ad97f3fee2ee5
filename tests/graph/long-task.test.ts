import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, EventRecorder } from "../../src/core/index.js";
import { recordingProvider, type ModelCallRecord } from "../../src/models/recording-model.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, finishPlan, scriptedModels } from "./scripted-models.js";
import { testGraph } from "./wire.js";

const ws = useTempWorkspace({ "a.txt": "a\n" });

/** A task far past the prompt budget (issue 38: a 990 KB task went to the planner whole, four times). */
function longTask(): string {
  const filler = (label: string) => `${label}: ${"the service must keep working while this is done. ".repeat(2_000)}\n`;
  return ["# Migration spec", filler("Intro"), "## Part 2: storage", filler("Storage"), "## The port", "The new port is 4711.", filler("Rest")].join("\n");
}

const text = (messages: BaseMessage[]) => messages.map((m) => m.text).join("\n");

/** The scripted models, with the tools each planner call was offered recorded as a session records them. */
function recorded(models: ReturnType<typeof scriptedModels>) {
  const calls: ModelCallRecord[] = [];
  const provider = recordingProvider(
    models,
    (c) => calls.push(c),
    () => null,
  );
  return { provider, plannerTools: () => calls.filter((c) => c.role === "planner").map((c) => c.request.tools) };
}

describe("a task longer than the planner's prompt budget", () => {
  it("shows its start and an outline within the budget, and the planner reads the rest with read_task", async () => {
    const task = longTask();
    const maxPromptTokens = 8_000;
    const models = scriptedModels({
      planner: [
        // Reads the part the outline points at.
        (messages) => {
          const offset = Number(/^- (\d+): ## The port$/m.exec(text(messages))?.[1]);
          return calls({ name: "read_task", args: { offset, length: 200 } });
        },
        (messages) => {
          const read = text(messages);
          return finishPlan(read.includes("The new port is 4711.") ? "read the port: 4711" : "did not find the port");
        },
      ],
    });
    const { provider, plannerTools } = recorded(models);
    const graph = testGraph({ models: provider, events: new EventRecorder(), checkpointer: new MemorySaver() });
    const final = await graph.invoke(
      { task, workspace: ws.root, limits: { ...DEFAULT_LIMITS, maxPromptTokens } },
      { configurable: { thread_id: "long" }, recursionLimit: 50 },
    );

    expect(task.length).toBeGreaterThan(200_000);
    const first = text(models.seen.planner?.[0] ?? []);
    // About 4 characters a token: the whole first prompt fits the budget.
    expect(first.length).toBeLessThan(maxPromptTokens * 4);
    expect(first).toContain("Task (its first ");
    expect(first).toContain("Outline of the rest (character offsets for read_task):");
    expect(first).not.toContain("The new port is 4711.");
    expect(plannerTools()[0]).toEqual(expect.arrayContaining(["read_task", "update_plan"]));
    expect(final.summary).toBe("read the port: 4711");
    expect(final.status).toBe("done");
  });

  it("shows a short task whole and offers no read_task", async () => {
    const models = scriptedModels({ planner: [finishPlan("nothing to do")] });
    const { provider, plannerTools } = recorded(models);
    const graph = testGraph({ models: provider, events: new EventRecorder(), checkpointer: new MemorySaver() });
    await graph.invoke({ task: "say hi", workspace: ws.root }, { configurable: { thread_id: "short" } });
    expect(text(models.seen.planner?.[0] ?? [])).toContain("Task: say hi");
    expect(plannerTools()[0]).toContain("update_plan");
    expect(plannerTools()[0]).not.toContain("read_task");
  });
});
