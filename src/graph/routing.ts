import type { Route } from "../core/index.js";
import type { WorkspaceStateValue } from "./state.js";

/**
 * Where the planner may send the session: each of the session's agents (built-in and custom), finish, or itself
 * (it asked the person a question: its next run asks it, then plans with the answer).
 */
export function plannerRoutes(agentNames: readonly string[]): Route[] {
  return [...agentNames, "planner", "finish"];
}

/** Conditional edge out of the planner: the sub-agent it chose, or finish. */
export function routeFromPlanner(state: WorkspaceStateValue): Route {
  if (state.status !== "running") return "finish";
  return state.route ?? "finish";
}
