import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder } from "../../src/core/index.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, finishPlan, plan, scriptedModels } from "./scripted-models.js";
import { testGraph } from "./wire.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

/**
 * The undo snapshot after a step costs git processes, so it is taken only after a step that may have changed the
 * workspace: it wrote a file or ran a command that could write. A step that only read is skipped, and so is a review
 * whose commands saw the workspace read-only in bubblewrap (the session's end takes the last snapshot anyway).
 */
describe("the after-step hook", () => {
  it("runs after steps that wrote or ran a writing command, not after reading or a sandboxed review", async () => {
    const models = scriptedModels({
      planner: [
        plan([
          { agent: "researcher", goal: "Read a.txt" },
          { agent: "coder", goal: "Make c.txt" },
          { agent: "coder", goal: "Write b.txt" },
          { agent: "reviewer", goal: "Check it" },
        ]),
        plan([
          { agent: "coder", goal: "Make c.txt" },
          { agent: "coder", goal: "Write b.txt" },
          { agent: "reviewer", goal: "Check it" },
        ]),
        plan([
          { agent: "coder", goal: "Write b.txt" },
          { agent: "reviewer", goal: "Check it" },
        ]),
        plan([{ agent: "reviewer", goal: "Check it" }]),
        finishPlan("ok"),
      ],
      researcher: [calls({ name: "read_file", args: { path: "a.txt" } }), calls({ name: "submit_findings", args: { summary: "read it", findings: [] } })],
      coder: [
        calls({ name: "execute_command", args: { command: "echo made > c.txt" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "made it" } }),
        calls({ name: "write_file", args: { path: "b.txt", content: "new\n" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote it" } }),
      ],
      reviewer: [
        calls({ name: "execute_command", args: { command: "cat b.txt c.txt" } }),
        calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } }),
      ],
    });
    const events = new EventRecorder();
    const after: string[] = [];
    const graph = testGraph({
      models,
      events,
      checkpointer: new MemorySaver(),
      afterStep: async () => {
        const started = events.events.filter((e) => e.type === "step_started").at(-1);
        after.push(started?.type === "step_started" ? started.agent : "?");
      },
    });
    const config = { configurable: { thread_id: "t" }, recursionLimit: 100 };
    const result = await graph.invoke({ task: "t", workspace: ws.root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" } }, config);
    expect(result.status).toBe("done");
    expect(events.events.filter((e) => e.type === "step_started").map((e) => e.type === "step_started" && e.agent)).toEqual([
      "researcher",
      "coder",
      "coder",
      "reviewer",
    ]);
    expect(after).toEqual(["coder", "coder"]);
    expect(await ws.read("c.txt")).toBe("made\n");
  });
});
