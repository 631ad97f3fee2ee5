import { z } from "zod";
import { safetyPolicySchema, usageBaseSchema } from "../core/index.js";
import { budgetSchema } from "../cost/budget.js";
import type { AgentRunValue } from "./run-state.js";

/**
 * What one sub-agent run is given and does not change: LangGraph runtime context (`agent.invoke(input, { context })`),
 * never state, so none of it is checkpointed. The session graph's adapter (src/graph/nodes/sub-agent.ts) builds it
 * from the session's state and the run's configurable settings each time it runs the agent, so a session resumed
 * with new settings (`resume --approval`, another checkout, new limits or budget) applies them to the run it stopped in.
 */
export const agentRunContextSchema = z.object({
  /** The workspace's real path: every tool is confined to it. */
  workspace: z.string(),
  stepId: z.string(),
  safety: safetyPolicySchema,
  maxModelCalls: z.number(),
  maxPromptTokens: z.number(),
  /** Session usage before this run, summed, for the budget and the running totals. */
  usageBase: usageBaseSchema,
  /** Questions the session asked before this run, and how many it may ask in all. */
  questions: z.object({ asked: z.number(), max: z.number() }),
  budget: budgetSchema,
});
export type AgentRunContext = z.infer<typeof agentRunContextSchema>;

/** The run as the middleware reads it: its state (transcript, decisions, answers, grants) and its context. */
export type AgentRun = AgentRunValue & AgentRunContext;

const checked = new WeakMap<object, AgentRunContext>();

/**
 * The run's context, checked once per context object (the adapter makes one per run). A run started without one
 * (an agent invoked by hand) fails at once with a clear error rather than working in the wrong folder.
 */
export function contextOf(context: unknown): AgentRunContext {
  if (typeof context !== "object" || context === null) throw new Error("a sub-agent run needs its runtime context (workspace, step, safety, limits)");
  let parsed = checked.get(context);
  if (!parsed) {
    parsed = agentRunContextSchema.parse(context);
    checked.set(context, parsed);
  }
  return parsed;
}

/** The state with the run's context beside it (read-only: never returned as an update). */
export function runOf(state: AgentRunValue, context: unknown): AgentRun {
  return { ...state, ...contextOf(context) };
}
