import { z } from "zod";
import { agentNameSchema } from "../../../core/index.js";

export const PLAN_TOOL_NAME = "update_plan";

export const planToolSchema = z.object({
  remainingSteps: z
    .array(
      z.object({
        agent: agentNameSchema.describe("The sub-agent that does this step."),
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
export type PlanToolArgs = z.infer<typeof planToolSchema>;

export const planToolDefinition = {
  type: "function" as const,
  function: {
    name: PLAN_TOOL_NAME,
    description: "Set the remaining plan steps, or finish the session. Call this on every turn.",
    parameters: planToolSchema.toJSONSchema(),
  },
};
