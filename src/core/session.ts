import { z } from "zod";

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
