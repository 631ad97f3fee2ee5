import { planBudgetResume } from "./budget-resume.js";
import { markInProgress, nextPendingStep } from "./nodes/planner/plan-ops.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "./state.js";
import { countersSchema, describeStop, isBudgetStop, type AgentName, type PlanStep, type StopKind } from "../core/index.js";
import type { Budget } from "../models/cost/budget.js";
import type { PriceTable } from "../models/cost/prices.js";

export type Continuation =
  /** Apply with `graph.updateState(config, values, asNode)`, then invoke with null input. */
  { kind: "continue"; asNode: AgentName | "planner"; values: WorkspaceStateUpdate } | { kind: "refuse"; reason: string };

/**
 * Stops a session can be continued after: the planner could not make a valid plan (malformed or missing tool calls),
 * gave up, hit a counter limit, or its reviews kept ending without a verdict (the reviewer gets one more review,
 * perhaps with another model). A budget stop continues only under a higher budget (budget-resume.ts).
 */
const CONTINUABLE = new Set<StopKind>(["no_plan", "gave_up", "agent_runs", "plan_revisions", "review_rounds", "no_verdict", "token_budget", "cost_budget"]);

/** Steps the stop marked skipped are what was left to do: they are pending again. */
function unskip(plan: PlanStep[]): PlanStep[] {
  return plan.map((s) => (s.status === "skipped" ? { ...s, status: "pending" } : s));
}

/**
 * How `resume` continues a session that ended `failed` or `limit_reached`, from its last checkpoint: it runs again
 * with fresh counters (sub-agent runs, plan revisions, review rounds, reviews without a verdict), completed steps are not run again, and the
 * state records that it was continued (the report and the planner say so). Where it picks up:
 * - a report the planner was deciding on when it stopped is kept unread: the planner decides on it again (written
 *   as the agent that made it, so the edge agent → planner runs the planner);
 * - else a step the planner had chosen (a limit stopped it before routing): the session goes to that step;
 * - else the planner plans again from the plan as it stands.
 */
export function planContinuation(state: WorkspaceStateValue, budget: Budget, prices: PriceTable): Continuation {
  if (state.status !== "failed" && state.status !== "limit_reached") return { kind: "refuse", reason: `it is ${state.status}, not stopped` };
  const stop = state.stop;
  if (!stop) return { kind: "refuse", reason: "it has no recorded stop to continue from" };
  if (!CONTINUABLE.has(stop.kind)) return { kind: "refuse", reason: `it stopped because of ${describeStop(stop)}` };
  const continued = { times: (state.continued?.times ?? 0) + 1, after: stop };
  const fresh: WorkspaceStateUpdate = { counters: countersSchema.parse({}), reviewsWithoutVerdict: 0, continued };
  if (isBudgetStop(stop)) {
    const resume = planBudgetResume(state, budget, prices);
    return resume.kind === "continue" ? { ...resume, values: { ...resume.values, ...fresh } } : resume;
  }
  const plan = unskip(state.plan);
  const running: WorkspaceStateUpdate = { ...fresh, status: "running", stop: null, summary: "", finalReport: "", plan };
  if (state.lastReport) return { kind: "continue", asNode: state.lastReport.agent, values: running };
  const next = stop.kind === "agent_runs" ? nextPendingStep(plan) : undefined;
  if (next) {
    return { kind: "continue", asNode: "planner", values: { ...running, plan: markInProgress(plan, next.id), route: next.agent, currentStepId: next.id } };
  }
  // No report and no chosen step: written as an agent that just reported nothing, so the planner runs next.
  return { kind: "continue", asNode: state.plan.at(-1)?.agent ?? "researcher", values: { ...running, route: null, currentStepId: null } };
}
