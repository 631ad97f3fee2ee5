import { markInProgress, nextPendingStep } from "./nodes/planner/plan-ops.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "./state.js";
import { describeStop, isBudgetStop, type AgentName, type StopReason } from "../core/index.js";
import { budgetExceeded, type Budget } from "../models/cost/budget.js";
import type { PriceTable } from "../models/cost/prices.js";
import type { UsageSummary } from "../models/cost/usage.js";

export type BudgetResume =
  /** Apply with `graph.updateState(config, values, asNode)`, then invoke with null input. */
  { kind: "continue"; asNode: AgentName | "planner"; values: WorkspaceStateUpdate } | { kind: "refuse"; reason: string };

/**
 * How a session the budget stopped continues under a new budget. The planner stops in one of two places, and the
 * session picks up where it stopped:
 * - before its own model call, keeping the newest report: written as the agent that made the report, so the edge
 *   agent → planner runs the planner again and it reads that report;
 * - before routing a step it had chosen: written as the planner with that route, so the planner's conditional edge
 *   sends the session to the step.
 * Completed steps are not run again either way.
 */
export function planBudgetResume(state: WorkspaceStateValue, budget: Budget, prices: PriceTable): BudgetResume {
  if (state.status !== "limit_reached" || !isBudgetStop(state.stop)) {
    return { kind: "refuse", reason: `it stopped on another limit (${describeStop(state.stop) || state.status})` };
  }
  const still = budgetExceeded(state.usage, budget, prices);
  if (still) return { kind: "refuse", reason: `the ${still.detail}` };
  const running: WorkspaceStateUpdate = { status: "running", stop: null, summary: "", finalReport: "" };
  if (state.lastReport) return { kind: "continue", asNode: state.lastReport.agent, values: running };
  const next = nextPendingStep(state.plan);
  if (!next) return { kind: "refuse", reason: "its plan has no step left to run" };
  return {
    kind: "continue",
    asNode: "planner",
    values: { ...running, plan: markInProgress(state.plan, next.id), route: next.agent, currentStepId: next.id },
  };
}

/**
 * The command that continues a session the budget stopped, naming the budget that ran out. `command` is the
 * resume command as the caller prints it (with `--workspace` when run from elsewhere); required, so no hint can
 * fall back to one without it.
 */
export function budgetHint(stop: StopReason | null, usage: UsageSummary, command: string): string {
  const flag =
    stop?.kind === "cost_budget"
      ? `--budget-usd <more than ${usage.knownCostUsd.toFixed(4)}>`
      : `--budget-tokens <more than ${usage.inputTokens + usage.outputTokens}>`;
  return `Continue with a higher budget: ${command} ${flag}`;
}
