import type { Route } from "./schemas.js";
import type { WorkspaceStateValue } from "./state.js";

export const PLANNER_ROUTES = ["researcher", "coder", "reviewer", "finish"] as const satisfies readonly Route[];

/** Conditional edge out of the planner: the sub-agent it chose, or finish. */
export function routeFromPlanner(state: WorkspaceStateValue): Route {
  if (state.status !== "running") return "finish";
  return state.route ?? "finish";
}
