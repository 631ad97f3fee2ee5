import { z } from "zod";
import { BUILTIN_AGENT_NAMES } from "../../../core/index.js";

export const PLAN_TOOL_NAME = "update_plan";

/**
 * The plan tool for a session's agents: a step's `agent` must be one of them (built-in or custom). An unknown name
 * fails validation and goes back to the planner model as a tool error that lists the agents it may use.
 */
export function createPlanTool(agentNames: readonly string[] = BUILTIN_AGENT_NAMES) {
  const names = [...new Set(agentNames)];
  const agent = z
    .string()
    .refine((n) => names.includes(n), { error: (issue) => `unknown agent ${JSON.stringify(issue.input)}: use one of ${names.join(", ")}` })
    .describe(`The sub-agent that does this step: one of ${names.join(", ")}.`);
  const schema = z.object({
    remainingSteps: z
      .array(
        z.object({
          agent,
          goal: z.string().min(1).describe("What the step must achieve, self-contained."),
          acceptanceCriteria: z.array(z.string()).default([]).describe("Concrete, checkable conditions for the step to be done."),
        }),
      )
      .max(12)
      .describe("The steps still to do, in order (at most 12). Replaces all pending steps. Empty when finished."),
    finished: z.boolean().default(false).describe("true when the task is complete or cannot be completed."),
    outcome: z.enum(["done", "failed"]).optional().describe('When finished: "done" or "failed".'),
    summary: z.string().optional().describe("When finished: what was achieved, or why the task failed."),
  });
  const parameters = schema.toJSONSchema();
  // The JSON schema the model reads names the agents as an enum (a refinement does not show there).
  const steps = (parameters.properties?.remainingSteps ?? {}) as { items?: { properties?: Record<string, Record<string, unknown>> } };
  const agentProperty = steps.items?.properties?.agent;
  if (agentProperty) agentProperty.enum = names;
  return {
    schema,
    definition: {
      type: "function" as const,
      function: {
        name: PLAN_TOOL_NAME,
        description: "Set the remaining plan steps, or finish the session. Call this on every turn.",
        parameters,
      },
    },
  };
}

export type PlanTool = ReturnType<typeof createPlanTool>;
export type PlanToolArgs = z.infer<PlanTool["schema"]>;

/** The plan tool with the built-in agents only (sessions without custom agents). */
export const builtinPlanTool = createPlanTool();
