import { z } from "zod";
import { agentNameSchema } from "./agents.js";

export const STEP_STATUSES = ["pending", "in_progress", "done", "failed", "skipped"] as const;
export const stepStatusSchema = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof stepStatusSchema>;

export const planStepSchema = z.object({
  id: z.string(),
  agent: agentNameSchema,
  goal: z.string(),
  acceptanceCriteria: z.array(z.string()).default([]),
  status: stepStatusSchema.default("pending"),
  result: z.string().default(""),
  /** Set on coder steps created to address a review: the id of that review's step. */
  fixesReview: z.string().optional(),
});
export type PlanStep = z.infer<typeof planStepSchema>;

/** What the progress view shows of a step. */
export type PlanStepView = Pick<PlanStep, "id" | "agent" | "goal" | "status">;

export const findingSchema = z.object({
  stepId: z.string(),
  source: z.string(),
  note: z.string(),
});
export type Finding = z.infer<typeof findingSchema>;

export const reviewProblemSchema = z.object({
  file: z.string().optional(),
  problem: z.string(),
  fix: z.string().optional(),
});
export type ReviewProblem = z.infer<typeof reviewProblemSchema>;

export const reviewSchema = z.object({
  stepId: z.string(),
  decision: z.enum(["approve", "changes_requested"]),
  summary: z.string(),
  problems: z.array(reviewProblemSchema).default([]),
});
export type Review = z.infer<typeof reviewSchema>;

/** Where the planner sends the session next: one of the session's agents (built-in or custom), or "finish". */
export const routeSchema = z.union([agentNameSchema, z.literal("finish")]);
export type Route = z.infer<typeof routeSchema>;
