import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Budget } from "../../../src/models/cost/budget.js";
import { planBudgetResume } from "../../../src/graph/budget-resume.js";
import { DEFAULT_PRICE_TABLE, priceRules, type PriceTable } from "../../../src/models/cost/prices.js";
import { testGraph } from "../../graph/wire.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder, type Limits, type ModelCallEvent } from "../../../src/core/index.js";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";
import { calls, finishPlan, plan, scriptedModels, type Reply } from "../../graph/scripted-models.js";

let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-cost-")));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

type Script = Partial<Record<"planner" | "researcher" | "coder" | "reviewer", Reply[]>>;

/** One session on a MemorySaver; `continueWith` resumes it under a new budget the way `mini-cursor resume` does. */
function session(script: Script, budget: Budget, prices: PriceTable = DEFAULT_PRICE_TABLE, limits: Partial<Limits> = {}) {
  const models = scriptedModels(script);
  const events = new EventRecorder();
  const checkpointer = new MemorySaver();
  // The budget travels in each run's configurable settings, as the CLI passes it.
  const config = (b: Budget) => ({ configurable: { thread_id: "t1", budget: b }, recursionLimit: 100 });
  const graph = testGraph({ models, events, prices, checkpointer });
  const state = async (b: Budget) => (await graph.getState(config(b))).values as WorkspaceStateValue;
  return {
    models,
    events,
    state,
    async start(): Promise<WorkspaceStateValue> {
      const input = {
        task: "write a file",
        workspace: root,
        limits: { ...DEFAULT_LIMITS, ...limits },
        safety: { ...DEFAULT_SAFETY, approval: "auto" as const },
      };
      await graph.invoke(input, config(budget));
      return state(budget);
    },
    async continueWith(next: Budget): Promise<WorkspaceStateValue> {
      const resume = planBudgetResume(await state(budget), next, prices);
      if (resume.kind !== "continue") throw new Error(`refused: ${resume.reason}`);
      await graph.updateState(config(next), resume.values, resume.asNode);
      await graph.invoke(null, config(next));
      return state(next);
    },
  };
}

// Every scripted reply reports 100 input + 10 output tokens.
const coderAndReview: Script = {
  planner: [
    plan([
      { agent: "coder", goal: "Write a.txt" },
      { agent: "reviewer", goal: "Review a.txt" },
    ]),
    plan([{ agent: "reviewer", goal: "Review a.txt" }]),
    finishPlan("a.txt written and reviewed"),
  ],
  coder: [
    calls({ name: "write_file", args: { path: "a.txt", content: "a\n" } }),
    calls({ name: "submit_work", args: { status: "done", summary: "wrote a.txt" } }),
  ],
  reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "fine" } })],
};

describe("token and cost budgets in the graph", () => {
  it("stops before the planner's next call once a run used the budget up, and continues under a higher one", async () => {
    const s = session(coderAndReview, { tokens: 300 });
    const stopped = await s.start();
    expect(stopped).toMatchObject({ status: "limit_reached", stop: { kind: "token_budget", detail: "token budget of 300 reached (330 used)" } });
    expect(stopped.plan.map((p) => [p.id, p.status])).toEqual([
      ["s1", "done"],
      ["s2", "pending"],
    ]);
    // The planner has not read the coder's report yet: it is kept for the continuation.
    expect(stopped.lastReport).toMatchObject({ stepId: "s1", agent: "coder" });
    expect(stopped.finalReport).toMatch(/Stopped: limit reached[\s\S]*Reason: token budget of 300 reached \(330 used\)[\s\S]*Not done:[\s\S]*s2/);
    expect(s.models.seen.planner).toHaveLength(1);
    expect(s.events.events).toContainEqual({ type: "limit_reached", limit: "budget", detail: "token budget of 300 reached (330 used)" });

    expect(planBudgetResume(stopped, { tokens: 300 }, DEFAULT_PRICE_TABLE)).toEqual({ kind: "refuse", reason: "the token budget of 300 reached (330 used)" });
    const done = await s.continueWith({ tokens: 10_000 });
    expect(done).toMatchObject({ status: "done", stop: null });
    expect(s.models.seen.coder).toHaveLength(2);
    expect(s.models.seen.planner).toHaveLength(3);
    expect(String(s.models.seen.planner?.[1]?.[1]?.content)).toContain("Latest report (s1, coder, done)");
    expect(done.plan.map((p) => p.status)).toEqual(["done", "done"]);
    expect(done.usage).toEqual({
      "planner:fake-planner": { inputTokens: 300, cachedInputTokens: 0, outputTokens: 30, calls: 3, estimatedCalls: 0 },
      "coder:fake-coder": { inputTokens: 200, cachedInputTokens: 0, outputTokens: 20, calls: 2, estimatedCalls: 0 },
      "reviewer:fake-reviewer": { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, calls: 1, estimatedCalls: 0 },
    });
  });

  it("stops before routing a step when the planner's own call used the budget up, and routes it on continuation", async () => {
    const s = session(coderAndReview, { tokens: 400 });
    const stopped = await s.start();
    expect(stopped).toMatchObject({
      status: "limit_reached",
      stop: { kind: "token_budget", detail: "token budget of 400 reached (440 used)" },
      lastReport: null,
    });
    expect(s.models.seen.planner).toHaveLength(2);

    const resume = planBudgetResume(stopped, { tokens: 1000 }, DEFAULT_PRICE_TABLE);
    expect(resume).toMatchObject({ kind: "continue", asNode: "planner", values: { route: "reviewer", currentStepId: "s2", status: "running" } });
    const done = await s.continueWith({ tokens: 1000 });
    expect(done.status).toBe("done");
    // Straight to the chosen step: no planner call is spent on deciding it again.
    expect(s.models.seen.planner).toHaveLength(3);
    expect(s.models.seen.coder).toHaveLength(2);
    expect(s.models.seen.reviewer).toHaveLength(1);
  });

  it("keeps a cost budget with the configured prices", async () => {
    const prices = priceRules({ "fake-*": { input: 1000, output: 1000 } }, "test");
    const s = session(coderAndReview, { usd: 0.3 }, prices);
    const stopped = await s.start();
    expect(stopped.stop).toEqual({ kind: "cost_budget", detail: "cost budget of $0.3000 reached ($0.3300 used)" });
    expect(stopped.finalReport).toContain("Cost: $0.3300");
    expect((await s.continueWith({ usd: 5 })).status).toBe("done");
  });

  it("does not continue a session another limit stopped", async () => {
    const s = session(coderAndReview, { tokens: 100_000 }, DEFAULT_PRICE_TABLE, { maxAgentRuns: 1 });
    const stopped = await s.start();
    expect(stopped).toMatchObject({ status: "limit_reached", stop: { kind: "agent_runs" } });
    expect(planBudgetResume(stopped, { tokens: 1e9 }, DEFAULT_PRICE_TABLE)).toMatchObject({
      kind: "refuse",
      reason: expect.stringMatching(/another limit \(sub-agent runs/),
    });
  });

  it("stamps model calls with the model and running totals, and estimates replies without usage data", async () => {
    const noUsage = new AIMessage({
      content: "",
      tool_calls: [{ id: "p1", name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Write a.txt" }], finished: false } }],
    });
    const s = session({ ...coderAndReview, planner: [noUsage, finishPlan("done"), finishPlan("reviewed")] }, {});
    const state = await s.start();
    expect(state.status).toBe("done");
    const modelCalls = s.events.events.filter((e): e is ModelCallEvent => e.type === "model_call");
    expect(modelCalls[0]).toMatchObject({ agent: "planner", model: "fake-planner", estimated: true, total: { calls: 1, estimated: true, costUsd: null } });
    expect(modelCalls[0]?.inputTokens).toBeGreaterThan(100);
    expect(modelCalls[1]).toMatchObject({ agent: "coder", model: "fake-coder", inputTokens: 100, outputTokens: 10, estimated: false });
    expect(modelCalls[1]?.total?.inputTokens).toBe((modelCalls[0]?.inputTokens ?? 0) + 100);
    expect(modelCalls.at(-1)?.total?.calls).toBe(modelCalls.length);
    expect(state.usage["planner:fake-planner"]).toMatchObject({ calls: 3, estimatedCalls: 1 });
    expect(state.finalReport).toMatch(/Tokens: \d+ in, \d+ out, 6 model calls \(1 estimated/);
    expect(state.finalReport).toMatch(/Cost: unknown — no price for fake-planner, fake-coder, fake-reviewer/);
  });
});
