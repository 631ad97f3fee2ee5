import { z } from "zod";

/**
 * Zod shapes of everything the shared workspace state holds. Every list is capped (see `caps`) because a
 * checkpoint stores the whole state at every step: unbounded lists would make the database grow with the
 * square of the session length.
 */
export const caps = {
  text: 600,
  result: 400,
  findings: 40,
  commands: 40,
  reviews: 6,
  filesChanged: 300,
  criteria: 6,
  /** Finished steps kept in full in the plan; older ones are folded into counts. */
  finishedSteps: 16,
} as const;

export const agentNameSchema = z.enum(["researcher", "coder", "reviewer"]);
export const stepStatusSchema = z.enum(["pending", "in_progress", "done", "failed", "skipped"]);

export const planStepSchema = z.object({
  id: z.string(),
  agent: agentNameSchema,
  goal: z.string(),
  acceptanceCriteria: z.array(z.string()).default([]),
  status: stepStatusSchema.default("pending"),
  result: z.string().default(""),
  /** Set on coder steps created to address a review. */
  fixesReview: z.string().optional(),
});
export type PlanStep = z.infer<typeof planStepSchema>;

export const findingSchema = z.object({
  stepId: z.string(),
  source: z.string(),
  note: z.string(),
});
export type Finding = z.infer<typeof findingSchema>;

export const commandRecordSchema = z.object({
  stepId: z.string(),
  agent: agentNameSchema,
  command: z.string(),
  cwd: z.string(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
});
export type CommandRecord = z.infer<typeof commandRecordSchema>;

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

export const tokenUsageSchema = z.object({
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  calls: z.number().default(0),
  /** Calls whose reply carried no usage data: their tokens are chars/4 estimates. */
  estimatedCalls: z.number().default(0),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;
/** Token usage keyed by `agent:model` (see src/cost/usage.ts); sessions from before the model was recorded use `agent`. */
export const usageByKeySchema = z.record(z.string(), tokenUsageSchema);
export type UsageByKey = z.infer<typeof usageByKeySchema>;

/** What a sub-agent hands back to the planner: a compact report, never its transcript. */
export const agentReportSchema = z.object({
  stepId: z.string(),
  agent: agentNameSchema,
  status: z.enum(["done", "failed", "incomplete"]),
  summary: z.string(),
  filesChanged: z.array(z.string()).default([]),
  commands: z.array(z.object({ command: z.string(), exitCode: z.number().nullable() })).default([]),
  findings: z.array(z.object({ source: z.string(), note: z.string() })).default([]),
  review: reviewSchema.optional(),
  modelCalls: z.number().default(0),
});
export type AgentReport = z.infer<typeof agentReportSchema>;

export const limitsSchema = z.object({
  maxPlanRevisions: z.number().int().positive().default(12),
  maxAgentRuns: z.number().int().positive().default(20),
  maxReviewRounds: z.number().int().positive().default(3),
  maxModelCallsPerRun: z.number().int().positive().default(30),
  /** Upper bound (tokens, estimated) for every prompt a sub-agent sends. */
  maxPromptTokens: z.number().int().positive().default(32_000),
});
export type Limits = z.infer<typeof limitsSchema>;
export const DEFAULT_LIMITS: Limits = limitsSchema.parse({});

export const countersSchema = z.object({
  planRevisions: z.number().default(0),
  agentRuns: z.number().default(0),
  reviewRounds: z.number().default(0),
});
export type Counters = z.infer<typeof countersSchema>;

/** Finished steps folded out of the plan to keep it bounded (see caps.finishedSteps). */
export const foldedStepsSchema = z.object({
  done: z.number().default(0),
  failed: z.number().default(0),
  skipped: z.number().default(0),
});
export type FoldedSteps = z.infer<typeof foldedStepsSchema>;

export const sessionStatusSchema = z.enum(["running", "done", "failed", "limit_reached"]);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

export const routeSchema = z.enum(["researcher", "coder", "reviewer", "finish"]);
export type Route = z.infer<typeof routeSchema>;

export function clip(text: string, max: number = caps.text): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}… [truncated]`;
}
