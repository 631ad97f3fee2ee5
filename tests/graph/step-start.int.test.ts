import fs from "node:fs/promises";
import path from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder, type ProgressEvent } from "../../src/core/index.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, finishPlan, plan, scriptedModels } from "./scripted-models.js";
import { testGraph } from "./wire.js";

const ws = useTempWorkspace({ "a.txt": "original\n", "src/main.ts": "export {};\n", "AGENTS.md": "Always run the tests.\n" });

const text = (m: BaseMessage | undefined): string => (typeof m?.content === "string" ? m.content : "");
const outlined = (m: BaseMessage) => text(m).includes("Workspace outline");
const started = (events: ProgressEvent[]) => events.filter((e) => e.type === "step_started");

/** A step starts once: announced by the planner when it routes, with the project context computed then, never again. */
describe("starting a step", () => {
  it("announces the step once and gives the agent its brief, then the project context", async () => {
    const models = scriptedModels({
      planner: [plan([{ agent: "coder", goal: "Read a.txt" }]), finishPlan("read"), finishPlan("read")],
      coder: [calls({ name: "read_file", args: { path: "a.txt" } }), calls({ name: "submit_work", args: { status: "done", summary: "read it" } })],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } })],
    });
    const events = new EventRecorder();
    const graph = testGraph({ models, events, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" }, recursionLimit: 100 };
    await graph.invoke({ task: "read a.txt", workspace: ws.root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" } }, config);
    // The coder's step, then the final review the planner adds: each announced once.
    expect(started(events.events)).toEqual([
      { type: "step_started", stepId: "s1", agent: "coder", goal: "Read a.txt" },
      { type: "step_started", stepId: "s2", agent: "reviewer", goal: expect.any(String) },
    ]);
    const first = models.seen.coder?.[0] ?? [];
    expect(first.map((m) => m.getType())).toEqual(["system", "human", "human"]);
    expect(text(first[1])).toContain("Your step (s1): Read a.txt");
    const context = text(first[2]);
    expect(context.startsWith("Workspace outline (top two levels):")).toBe(true);
    expect(context).toMatch(/^ {2}main\.ts$/m);
    expect(context).toContain("Project rules from AGENTS.md (follow them):\nAlways run the tests.");
    // Every prompt of the run carries the context exactly once.
    for (const prompt of models.seen.coder ?? []) expect(prompt.filter(outlined)).toHaveLength(1);
    const state = (await graph.getState(config)).values as WorkspaceStateValue;
    expect(state.status).toBe("done");
  });

  it("does not announce the step or compute the context again when a run paused for approval resumes", async () => {
    const models = scriptedModels({
      planner: [plan([{ agent: "coder", goal: "Make a file" }]), finishPlan("made"), finishPlan("made")],
      coder: [
        calls({ name: "execute_command", args: { command: "touch made-by-command" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "ran it" } }),
      ],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } })],
    });
    const events = new EventRecorder();
    const graph = testGraph({ models, events, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" }, recursionLimit: 100 };
    const paused: unknown = await graph.invoke(
      { task: "make a file", workspace: ws.root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "ask" } },
      config,
    );
    expect(paused).toHaveProperty("__interrupt__");
    await expect(fs.access(path.join(ws.root, "made-by-command"))).rejects.toThrow();
    // A file appearing while paused would show up in a recomputed outline.
    await fs.writeFile(path.join(ws.root, "added-while-paused.txt"), "x\n");
    await graph.invoke(new Command({ resume: { decision: "approve" } }), config);
    await expect(fs.access(path.join(ws.root, "made-by-command"))).resolves.toBeUndefined();
    expect(started(events.events).map((e) => e.type === "step_started" && [e.stepId, e.agent])).toEqual([
      ["s1", "coder"],
      ["s2", "reviewer"],
    ]);
    const coderPrompts = models.seen.coder ?? [];
    expect(coderPrompts).toHaveLength(2);
    for (const prompt of coderPrompts) {
      expect(prompt.filter(outlined)).toHaveLength(1);
      expect(prompt.some((m) => text(m).includes("added-while-paused.txt"))).toBe(false);
    }
    expect((await graph.getState(config)).values).toMatchObject({ status: "done" });
  });
});
