import type { Route } from "../core/index.js";
import type { WorkspaceStateValue } from "./state.js";

/** Where the planner may send the session: each of the session's agents (built-in and custom), or finish. */
export function plannerRoutes(agentNames: readonly string[]): Route[] {
  return [...agentNames, "finish"];
}

/** Conditional edge out of the planner: the sub-agent it chose, or finish. */
export function routeFromPlanner(state: WorkspaceStateValue): Route {
  if (state.status !== "running") return "finish";
  return state.route ?? "finish";
}
