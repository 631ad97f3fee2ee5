import { describe, expect, it } from "vitest";
import {
  applyReport,
  foldFinished,
  hasUnreviewedChanges,
  insertReviewFix,
  nextPendingStep,
  pendingChanged,
  replacePending,
} from "../../src/graph/nodes/planner/plan-ops.js";
import { routeFromPlanner } from "../../src/graph/routing.js";
import type { PlanStep } from "../../src/core/index.js";
import { WorkspaceState } from "../../src/graph/state.js";
import { sessionState } from "./state-fixture.js";

const step = (id: string, agent: PlanStep["agent"], status: PlanStep["status"]): PlanStep => ({
  id,
  agent,
  goal: `goal ${id}`,
  acceptanceCriteria: [],
  status,
  result: "",
});

describe("plan operations", () => {
  it("replaces only pending steps and keeps ids unique", () => {
    const plan = [step("s1", "researcher", "done"), step("s2", "coder", "pending")];
    const next = replacePending(plan, [
      { agent: "coder", goal: "write it", acceptanceCriteria: [] },
      { agent: "reviewer", goal: "check it", acceptanceCriteria: ["tests pass"] },
    ]);
    expect(next.map((s) => s.id)).toEqual(["s1", "s3", "s4"]);
    expect(next[2]?.acceptanceCriteria).toEqual(["tests pass"]);
  });

  it("applies a report to its step", () => {
    const plan = applyReport([step("s1", "coder", "in_progress")], {
      stepId: "s1",
      agent: "coder",
      status: "incomplete",
      summary: "ran out of calls",
      filesChanged: [],
      commands: [],
      findings: [],
      modelCalls: 3,
    });
    expect(plan[0]).toMatchObject({ status: "failed", result: "ran out of calls" });
  });

  it("turns a review that requests changes into a fix step and a new review ahead of pending steps", () => {
    const plan = [step("s1", "coder", "done"), step("s2", "reviewer", "done"), step("s3", "coder", "pending")];
    const next = insertReviewFix(plan, {
      stepId: "s2",
      decision: "changes_requested",
      summary: "the test fails",
      problems: [{ file: "a.ts", problem: "off by one" }],
    });
    expect(next.map((s) => [s.id, s.agent, s.status])).toEqual([
      ["s1", "coder", "done"],
      ["s2", "reviewer", "done"],
      ["s4", "coder", "pending"],
      ["s5", "reviewer", "pending"],
      ["s3", "coder", "pending"],
    ]);
    expect(next[2]?.fixesReview).toBe("s2");
    expect(nextPendingStep(next)?.id).toBe("s4");
  });

  it("knows when a change has not been reviewed", () => {
    const plan = [step("s1", "coder", "done"), step("s2", "reviewer", "done"), step("s3", "coder", "done")];
    const approve = { stepId: "s2", decision: "approve" as const, summary: "ok", problems: [] };
    expect(hasUnreviewedChanges(plan.slice(0, 2), [approve])).toBe(false);
    expect(hasUnreviewedChanges(plan, [approve])).toBe(true);
    expect(hasUnreviewedChanges(plan.slice(0, 2), [{ ...approve, decision: "changes_requested" }])).toBe(true);
  });
});

describe("routing", () => {
  const base = WorkspaceState;
  it("routes to the planner's choice while running and to finish otherwise", () => {
    const state = { ...sessionState(), route: "coder" as const };
    expect(routeFromPlanner(state)).toBe("coder");
    expect(routeFromPlanner({ ...state, status: "limit_reached" })).toBe("finish");
    expect(routeFromPlanner({ ...state, route: null })).toBe("finish");
    expect(base).toBeDefined();
  });
});

describe("stable step ids", () => {
  it("keeps the id of a pending step the planner repeats, and its criteria when none are given", () => {
    const plan: PlanStep[] = [
      { id: "s1", agent: "coder", goal: "write", acceptanceCriteria: [], status: "done", result: "ok" },
      { id: "s2", agent: "reviewer", goal: "review it", acceptanceCriteria: ["tests pass"], status: "pending", result: "" },
    ];
    const next = replacePending(plan, [
      { agent: "coder", goal: "also docs", acceptanceCriteria: [] },
      { agent: "reviewer", goal: "review it", acceptanceCriteria: [] },
    ]);
    expect(next.map((s) => s.id)).toEqual(["s1", "s3", "s2"]);
    expect(next[2]?.acceptanceCriteria).toEqual(["tests pass"]);
    expect(pendingChanged(plan, next)).toBe(true);
    expect(pendingChanged(plan, replacePending(plan, [{ agent: "reviewer", goal: "review it", acceptanceCriteria: [] }]))).toBe(false);
  });
});

describe("bounded plan", () => {
  it("folds the oldest finished steps into counts, keeping pending steps and the newest id", () => {
    const plan = [
      step("s1", "researcher", "done"),
      step("s2", "coder", "failed"),
      step("s3", "coder", "done"),
      step("s4", "reviewer", "done"),
      step("s5", "coder", "pending"),
    ];
    const { plan: kept, folded } = foldFinished(plan, { done: 1, failed: 0, skipped: 0 }, 1);
    expect(kept.map((s) => s.id)).toEqual(["s4", "s5"]);
    expect(folded).toEqual({ done: 3, failed: 1, skipped: 0 });
    // New ids continue after the highest one, even if it was a finished step.
    const onlyFinished = foldFinished([step("s1", "coder", "done"), step("s9", "reviewer", "done")], { done: 0, failed: 0, skipped: 0 }, 0);
    expect(onlyFinished.plan.map((s) => s.id)).toEqual(["s9"]);
    expect(replacePending(onlyFinished.plan, [{ agent: "coder", goal: "next", acceptanceCriteria: [] }]).at(-1)?.id).toBe("s10");
  });

  it("leaves a short plan alone", () => {
    const plan = [step("s1", "coder", "done"), step("s2", "coder", "pending")];
    const folded = { done: 0, failed: 0, skipped: 0 };
    expect(foldFinished(plan, folded)).toEqual({ plan, folded });
  });
});
