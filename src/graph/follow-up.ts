import type { Turn, WorkspaceStateUpdate, WorkspaceStateValue } from "./state.js";
import { clip, countersSchema, describeStop, type PlanStep } from "../core/index.js";
import type { Budget } from "../models/cost/budget.js";
import type { PriceTable } from "../models/cost/prices.js";
import { summarizeUsage } from "../models/cost/usage.js";

/** How much of an instruction and of the previous turn's outcome the state keeps (the planner sees both every turn). */
const INSTRUCTION_CHARS = 4000;
const OUTCOME_CHARS = 1500;

/** How the turn before ended, in one line for the planner (a killed run's state still says "running"). */
function outcomeOf(state: WorkspaceStateValue): string {
  if (state.status === "running") return "interrupted before it finished";
  const why = state.summary || (state.stop ? describeStop(state.stop) : "");
  return clip(`${state.status}${why ? `: ${why}` : ""}`, OUTCOME_CHARS);
}

/** A step a killed run left in progress is open again: the planner keeps it or replaces it. */
function reopen(plan: PlanStep[]): PlanStep[] {
  return plan.some((s) => s.status === "in_progress") ? plan.map((s) => (s.status === "in_progress" ? { ...s, status: "pending" } : s)) : plan;
}

/**
 * The input that starts a follow-up turn (`resume --message`) of a session, whatever its state: done, failed, stopped
 * at a limit, or killed mid-run. Given as a new graph input (not a state update), LangGraph discards any task a killed
 * run left pending and runs the planner from START, which sees the instruction with the work already done
 * (src/graph/nodes/planner/planner-agent.ts). The counters that limit a run start from zero, the stop and the previous
 * summary are cleared (the outcome is kept in `turn`), and the reducer channels (findings, files, reviews, usage)
 * are not touched: the earlier work stays as it is, nothing is copied.
 */
export function planFollowUp(state: WorkspaceStateValue, instruction: string, prices: PriceTable): WorkspaceStateUpdate & { turn: Turn } {
  const usage = summarizeUsage(state.usage, prices);
  const turn: Turn = {
    number: (state.turn?.number ?? 1) + 1,
    instruction: clip(instruction.trim(), INSTRUCTION_CHARS),
    previousOutcome: outcomeOf(state),
    usageBefore: { tokens: usage.inputTokens + usage.outputTokens, usd: usage.knownCostUsd },
  };
  return {
    turn,
    plan: reopen(state.plan),
    counters: countersSchema.parse({}),
    reviewsWithoutVerdict: 0,
    continued: null,
    status: "running",
    stop: null,
    summary: "",
    finalReport: "",
    route: null,
    currentStepId: null,
    stepStart: null,
  };
}

/**
 * Where a run's turn started, for its budget: now for a new turn (a follow-up instruction), else the current turn's
 * start; null for a session with no state yet.
 */
export function turnStartFor(state: WorkspaceStateValue | null, newTurn: boolean, prices: PriceTable): Pick<Turn, "usageBefore"> | null {
  if (!state) return null;
  if (!newTurn) return state.turn;
  const usage = summarizeUsage(state.usage, prices);
  return { usageBefore: { tokens: usage.inputTokens + usage.outputTokens, usd: usage.knownCostUsd } };
}

/**
 * Budgets count per turn: a session's budget applies to what the current turn uses, so the run's budget carries the
 * usage before the turn, which the budget check subtracts (src/models/cost/budget.ts), and a stop says the turn's figures.
 */
export function budgetForTurn(budget: Budget, turn: Pick<Turn, "usageBefore"> | null): Budget {
  if (!turn || (budget.tokens === undefined && budget.usd === undefined)) return budget;
  return { ...budget, spentBefore: turn.usageBefore };
}

/**
 * The usage of the current turn, for the budget hint ("--budget-tokens <more than N>"): the budget flags count per
 * turn. Tokens are given as one input total (the hint adds input and output).
 */
export function turnUsage<T extends { inputTokens: number; outputTokens: number; knownCostUsd: number }>(usage: T, turn: Pick<Turn, "usageBefore"> | null): T {
  if (!turn) return usage;
  return {
    ...usage,
    inputTokens: Math.max(0, usage.inputTokens + usage.outputTokens - turn.usageBefore.tokens),
    outputTokens: 0,
    knownCostUsd: Math.max(0, usage.knownCostUsd - turn.usageBefore.usd),
  };
}
