import { type StructuredOutputParsingError, toolStrategy } from "langchain";
import { z } from "zod";
import { BUILTIN_AGENT_NAMES } from "../../../core/index.js";

export const PLAN_TOOL_NAME = "update_plan";

/** The validation error as the model reads it (LangChain's structured output sends it back as the call's result). */
function invalidPlan(error: Error): string {
  const all = (error as Partial<StructuredOutputParsingError>).errors ?? [error.message];
  // The validator also names every enclosing level ("Property "x" does not match schema."): keep what is wrong.
  const leaves = all.filter((p) => !/(does|did) not match schema\.?$/.test(p));
  const problems = (leaves.length > 0 ? leaves : all).map((p) => p.replace(/\.$/, ""));
  return `Error: invalid ${PLAN_TOOL_NAME} arguments (${problems.join("; ")}). Call ${PLAN_TOOL_NAME} again with valid arguments.`;
}

/**
 * The planner's answer for a session's agents (built-in and custom): the zod schema that gives the arguments their
 * defaults, and LangChain's tool strategy that offers it to the model as the `update_plan` tool (createAgent's
 * `responseFormat`), validates each call against its JSON schema and sends an invalid one back as a tool error for the
 * model to correct. A step's `agent` is an enum of the session's agents in the schema the model reads.
 */
export function createPlanTool(agentNames: readonly string[] = BUILTIN_AGENT_NAMES) {
  const names = [...new Set(agentNames)];
  const schema = z.object({
    remainingSteps: z
      .array(
        z.object({
          agent: z.enum(names as [string, ...string[]]).describe(`The sub-agent that does this step: one of ${names.join(", ")}.`),
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
  // The input schema: fields with defaults may be left out, and extra fields are ignored, as zod parses them.
  const parameters = {
    ...schema.toJSONSchema({ io: "input" }),
    title: PLAN_TOOL_NAME,
    description: "Set the remaining plan steps, or finish the session. Call this on every turn.",
  };
  const strategy = toolStrategy(parameters, { handleError: invalidPlan, toolMessageContent: "Plan recorded." });
  return { schema, strategy };
}

export type PlanTool = ReturnType<typeof createPlanTool>;
export type PlanToolArgs = z.infer<PlanTool["schema"]>;
