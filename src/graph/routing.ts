import { AGENT_NAMES, type Route } from "../core/index.js";
import type { WorkspaceStateValue } from "./state.js";

export const PLANNER_ROUTES = [...AGENT_NAMES, "finish"] as const satisfies readonly Route[];

/** Conditional edge out of the planner: the sub-agent it chose, or finish. */
export function routeFromPlanner(state: WorkspaceStateValue): Route {
  if (state.status !== "running") return "finish";
  return state.route ?? "finish";
}
