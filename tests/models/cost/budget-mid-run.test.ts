import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planBudgetResume } from "../../../src/graph/budget-resume.js";
import { DEFAULT_PRICE_TABLE } from "../../../src/models/cost/prices.js";
import { testGraph } from "../../graph/wire.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder, type ModelCallEvent } from "../../../src/core/index.js";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";
import { calls, finishPlan, plan, scriptedModels } from "../../graph/scripted-models.js";

let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-midrun-")));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("budget inside a sub-agent run", () => {
  it("stops the run before the model call that would go over, and the session continues under a higher budget", async () => {
    const models = scriptedModels({
      planner: [
        plan([{ agent: "coder", goal: "Write three files" }]),
        plan([{ agent: "coder", goal: "Write the rest" }]),
        finishPlan("written"),
        finishPlan("reviewed"),
      ],
      coder: [
        calls({ name: "write_file", args: { path: "a.txt", content: "a" } }),
        calls({ name: "write_file", args: { path: "b.txt", content: "b" } }),
        calls({ name: "write_file", args: { path: "c.txt", content: "c" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "wrote the rest" } }),
      ],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "fine" } })],
    });
    const events = new EventRecorder();
    const saver = new MemorySaver();
    const config = (tokens: number) => ({ configurable: { thread_id: "t", budget: { tokens } }, recursionLimit: 100 });
    const graph = testGraph({ models, events, checkpointer: saver });
    await graph.invoke({ task: "t", workspace: root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" } }, config(300));
    const stopped = (await graph.getState(config(300))).values as WorkspaceStateValue;
    // planner 110 + coder 110 + 110 = 330: the third coder call is never made.
    expect(models.seen.coder).toHaveLength(2);
    expect(stopped).toMatchObject({ status: "limit_reached", stop: { kind: "token_budget", detail: "token budget of 300 reached (330 used)" } });
    expect(stopped.plan[0]).toMatchObject({ status: "failed", result: expect.stringMatching(/^Stopped: token budget of 300 reached/) });

    const resume = planBudgetResume(stopped, { tokens: 5000 }, DEFAULT_PRICE_TABLE);
    if (resume.kind !== "continue") throw new Error(resume.reason);
    await graph.updateState(config(5000), resume.values, resume.asNode);
    await graph.invoke(null, config(5000));
    const done = (await graph.getState(config(5000))).values as WorkspaceStateValue;
    expect(done.status).toBe("done");
    expect(await fs.readFile(path.join(root, "c.txt"), "utf8")).toBe("c");
  });

  it("estimates and marks sub-agent calls whose replies carry no usage data", async () => {
    const bare = (name: string, args: Record<string, unknown>) =>
      new AIMessage({ content: "", tool_calls: [{ id: `c_${name}`, name, args, type: "tool_call" }] });
    const models = scriptedModels({
      planner: [plan([{ agent: "researcher", goal: "Look" }]), finishPlan("looked")],
      researcher: [bare("list_directory", { path: "." }), bare("submit_findings", { summary: "empty", findings: [] })],
    });
    const events = new EventRecorder();
    const graph = testGraph({ models, events, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" }, recursionLimit: 100 };
    await graph.invoke({ task: "t", workspace: root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" } }, config);
    const state = (await graph.getState(config)).values as WorkspaceStateValue;
    expect(state.usage["researcher:fake-researcher"]).toMatchObject({ calls: 2, estimatedCalls: 2 });
    expect(state.usage["researcher:fake-researcher"]?.inputTokens).toBeGreaterThan(0);
    const researcherCalls = events.events.filter((e): e is ModelCallEvent => e.type === "model_call" && e.agent === "researcher");
    expect(researcherCalls.every((e) => e.estimated === true && e.total?.estimated === true)).toBe(true);
    expect(state.finalReport).toMatch(/2 estimated/);
  });
});
