import { describe, expect, it } from "vitest";
import type { AgentReport, PlanStep } from "../../src/core/index.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import { planContinuation } from "../../src/graph/continue-session.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { sessionState } from "./state-fixture.js";

/** Which stops `resume` continues, and where each picks up (pure: the e2e side is tests/faces/cli/continue-e2e.test.ts). */
function stopped(over: Partial<WorkspaceStateValue>): WorkspaceStateValue {
  return sessionState({
    limits: { maxPlanRevisions: 5, maxAgentRuns: 1, maxReviewRounds: 2, maxModelCallsPerRun: 5, maxPromptTokens: 32_000, maxQuestions: 3 },
    counters: { planRevisions: 3, agentRuns: 1, reviewRounds: 2, questions: 0 },
    status: "failed",
    summary: "gave up",
    finalReport: "Failed: t",
    ...over,
  });
}

const step = (id: string, agent: PlanStep["agent"], status: PlanStep["status"]): PlanStep => ({
  id,
  agent,
  goal: `goal ${id}`,
  acceptanceCriteria: [],
  status,
  result: "",
});
const report: AgentReport = { stepId: "s1", agent: "coder", status: "incomplete", summary: "x", filesChanged: [], commands: [], findings: [], modelCalls: 4 };
const prices = DEFAULT_PRICE_TABLE;

describe("planContinuation", () => {
  it("a planner that gave no valid plan decides again on the report it had, with fresh counters", () => {
    const state = stopped({
      stop: { kind: "no_plan", detail: "after 3 attempts" },
      lastReport: report,
      plan: [step("s1", "coder", "failed"), step("s2", "reviewer", "skipped")],
    });
    const next = planContinuation(state, {}, prices);
    expect(next).toMatchObject({
      kind: "continue",
      asNode: "coder",
      values: {
        status: "running",
        stop: null,
        summary: "",
        finalReport: "",
        counters: { planRevisions: 0, agentRuns: 0, reviewRounds: 0 },
        continued: { times: 1, after: { kind: "no_plan", detail: "after 3 attempts" } },
      },
    });
    // The steps the stop skipped are pending again.
    expect(next.kind === "continue" ? next.values.plan?.map((s) => s.status) : []).toEqual(["failed", "pending"]);
  });

  it("a limit that stopped before a chosen step goes to that step", () => {
    const state = stopped({
      status: "limit_reached",
      stop: { kind: "agent_runs", detail: "1 run" },
      plan: [step("s1", "coder", "done"), step("s2", "reviewer", "skipped")],
    });
    const next = planContinuation(state, {}, prices);
    expect(next).toMatchObject({ kind: "continue", asNode: "planner", values: { route: "reviewer", currentStepId: "s2" } });
    expect(next.kind === "continue" ? next.values.plan?.map((s) => s.status) : []).toEqual(["done", "in_progress"]);
  });

  it("with neither a report nor a chosen step the planner plans again; continuations are counted", () => {
    const state = stopped({
      stop: { kind: "gave_up", detail: "no way" },
      continued: { times: 1, after: { kind: "no_plan", detail: "x" } },
      plan: [step("s1", "researcher", "done")],
    });
    expect(planContinuation(state, {}, prices)).toMatchObject({
      kind: "continue",
      asNode: "researcher",
      values: { route: null, continued: { times: 2, after: { kind: "gave_up" } } },
    });
  });

  it("reviews that kept ending without a verdict: the planner decides again on the last one, counting from zero", () => {
    const review: AgentReport = { ...report, stepId: "s2", agent: "reviewer", summary: "Review ended without a verdict." };
    const state = stopped({
      stop: { kind: "no_verdict", detail: "the reviewer ended 2 reviews in a row without a verdict" },
      reviewsWithoutVerdict: 2,
      lastReport: review,
      plan: [step("s1", "coder", "done"), step("s2", "reviewer", "failed")],
    });
    expect(planContinuation(state, {}, prices)).toMatchObject({
      kind: "continue",
      asNode: "reviewer",
      values: { status: "running", stop: null, reviewsWithoutVerdict: 0, continued: { times: 1, after: { kind: "no_verdict" } } },
    });
  });

  it("a budget stop still needs a higher budget, and gets fresh counters too", () => {
    const state = stopped({
      status: "limit_reached",
      stop: { kind: "token_budget", detail: "token budget of 10 reached (20 used)" },
      lastReport: report,
      usage: { "coder:m": { inputTokens: 15, cachedInputTokens: 0, outputTokens: 5, calls: 1, estimatedCalls: 0 } },
    });
    expect(planContinuation(state, { tokens: 10 }, prices)).toMatchObject({ kind: "refuse" });
    expect(planContinuation(state, { tokens: 100 }, prices)).toMatchObject({
      kind: "continue",
      asNode: "coder",
      values: { counters: { agentRuns: 0 }, continued: { times: 1 } },
    });
  });

  it("refuses what cannot go on", () => {
    expect(planContinuation(stopped({ status: "done" }), {}, prices)).toEqual({ kind: "refuse", reason: "it is done, not stopped" });
    expect(planContinuation(stopped({ stop: { kind: "no_workspace", detail: "pass one" } }), {}, prices)).toEqual({
      kind: "refuse",
      reason: "it stopped because of no workspace: pass one",
    });
    expect(planContinuation(stopped({ stop: null }), {}, prices)).toMatchObject({ kind: "refuse" });
  });
});
