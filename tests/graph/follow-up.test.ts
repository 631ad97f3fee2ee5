import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/core/index.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import { budgetExceededBy } from "../../src/models/cost/budget.js";
import { budgetForTurn, planFollowUp, turnStartFor } from "../../src/graph/follow-up.js";
import { renderPlannerContext } from "../../src/graph/nodes/planner/planner-agent.js";
import { sessionState } from "./state-fixture.js";

/** How a follow-up turn starts (pure; the e2e side is tests/faces/cli/follow-up-e2e.test.ts). */
const step = (id: string, status: PlanStep["status"]): PlanStep => ({ id, agent: "coder", goal: `goal ${id}`, acceptanceCriteria: [], status, result: "" });
const usage = { "coder:m": { inputTokens: 900, cachedInputTokens: 0, outputTokens: 100, calls: 3, estimatedCalls: 0 } };

describe("planFollowUp", () => {
  it("a done session: turn 2 with fresh counters, its outcome kept, the stop and summary cleared, the work left as it is", () => {
    const state = sessionState({
      status: "done",
      summary: "greet is written",
      plan: [step("s1", "done")],
      counters: { planRevisions: 4, agentRuns: 5, reviewRounds: 2, questions: 3 },
      reviewsWithoutVerdict: 1,
      continued: { times: 1, after: { kind: "agent_runs", detail: "x" } },
      usage,
    });
    const input = planFollowUp(state, "  add farewell  ", DEFAULT_PRICE_TABLE);
    expect(input.turn).toEqual({ number: 2, instruction: "add farewell", previousOutcome: "done: greet is written", usageBefore: { tokens: 1000, usd: 0 } });
    expect(input).toMatchObject({
      counters: { planRevisions: 0, agentRuns: 0, reviewRounds: 0, questions: 0 },
      reviewsWithoutVerdict: 0,
      continued: null,
      status: "running",
      stop: null,
      summary: "",
      finalReport: "",
    });
    expect(input.plan).toEqual(state.plan);
    // Reducer channels are not in the input: nothing is appended or copied.
    for (const key of ["findings", "filesChanged", "reviews", "usage", "commands"]) expect(input).not.toHaveProperty(key);
  });

  it("counts turns, says why a stopped turn ended, and reopens a step a killed run left in progress", () => {
    const stopped = sessionState({
      status: "limit_reached",
      stop: { kind: "agent_runs", detail: "the limit of 1 runs was reached" },
      turn: { number: 2, instruction: "a", previousOutcome: "done", usageBefore: { tokens: 1, usd: 0 } },
    });
    expect(planFollowUp(stopped, "b", DEFAULT_PRICE_TABLE).turn).toMatchObject({
      number: 3,
      previousOutcome: "limit_reached: sub-agent runs: the limit of 1 runs was reached",
    });
    const killed = sessionState({ status: "running", plan: [step("s1", "done"), step("s2", "in_progress")] });
    const input = planFollowUp(killed, "c", DEFAULT_PRICE_TABLE);
    expect(input.turn.previousOutcome).toBe("interrupted before it finished");
    expect(input.plan?.map((s) => s.status)).toEqual(["done", "pending"]);
  });
});

describe("budgetForTurn", () => {
  it("a budget counts what the turn uses: the usage before the turn is carried with it and subtracted", () => {
    const turnBudget = budgetForTurn({ tokens: 500, usd: 0.5 }, { usageBefore: { tokens: 1000, usd: 0.25 } });
    expect(turnBudget).toEqual({ tokens: 500, usd: 0.5, spentBefore: { tokens: 1000, usd: 0.25 } });
    expect(budgetForTurn({}, { usageBefore: { tokens: 1000, usd: 0.25 } })).toEqual({});
    expect(budgetForTurn({ tokens: 500 }, null)).toEqual({ tokens: 500 });
    expect(budgetExceededBy({ tokens: 1499, knownCostUsd: 0.5 }, turnBudget)).toBeNull();
    // The stop names the session's budget and what this turn used, not the sums with the turns before.
    expect(budgetExceededBy({ tokens: 1500, knownCostUsd: 0.5 }, turnBudget)?.detail).toBe("token budget of 500 reached (500 used this turn)");
    expect(budgetExceededBy({ tokens: 1200, knownCostUsd: 0.8 }, turnBudget)?.detail).toBe("cost budget of $0.5000 reached ($0.5500 used this turn)");
  });
});

describe("turnStartFor", () => {
  it("starts a new turn at the session's usage so far; a continued turn keeps its start; no state, no start", () => {
    const turn = { number: 2, instruction: "also b", previousOutcome: "done", usageBefore: { tokens: 100, usd: 0 } };
    const state = sessionState({ usage: { "coder:m": { inputTokens: 900, cachedInputTokens: 0, outputTokens: 100, calls: 3, estimatedCalls: 0 } }, turn });
    expect(turnStartFor(state, true, DEFAULT_PRICE_TABLE)).toEqual({ usageBefore: { tokens: 1000, usd: 0 } });
    expect(turnStartFor(state, false, DEFAULT_PRICE_TABLE)).toBe(turn);
    expect(turnStartFor(null, true, DEFAULT_PRICE_TABLE)).toBeNull();
  });
});

describe("the planner's context in a follow-up turn", () => {
  it("names the instruction beside the task, how the last turn ended, the files, findings and latest review", () => {
    const state = sessionState({
      task: "Add greet",
      plan: [step("s1", "done")],
      filesChanged: ["src/greet.js"],
      findings: [{ stepId: "s1", source: "src/a.js", note: "uses ESM" }],
      reviews: [{ stepId: "s2", decision: "approve", summary: "fine", problems: [] }],
      turn: { number: 2, instruction: "Add farewell", previousOutcome: "done: greet is written", usageBefore: { tokens: 0, usd: 0 } },
    });
    const context = renderPlannerContext(state, null);
    expect(context).toContain(
      "Task: Add greet\nWorkspace: /w\nFollow-up instruction (turn 2): Add farewell\nThe user gave this instruction after the previous turn ended (done: greet is written).",
    );
    expect(context).toContain("Files changed so far: src/greet.js");
    expect(context).toContain("Earlier finding (src/a.js): uses ESM");
    expect(context).toContain("Latest review (s2): approve: fine");
    expect(context).toContain("- s1 [coder] done: goal s1");
    expect(renderPlannerContext({ ...state, turn: null }, null)).not.toContain("Follow-up");
  });
});
