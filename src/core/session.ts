import { z } from "zod";

export const limitsSchema = z.object({
  maxPlanRevisions: z.number().int().positive().default(12),
  maxAgentRuns: z.number().int().positive().default(20),
  maxReviewRounds: z.number().int().positive().default(3),
  maxModelCallsPerRun: z.number().int().positive().default(30),
  /** Upper bound (tokens, estimated) for every prompt a sub-agent sends. */
  maxPromptTokens: z.number().int().positive().default(32_000),
  /** Clarifying questions (ask_user) the planner and the agents may ask per turn; 0: never ask (ask_user is not offered). */
  maxQuestions: z.number().int().min(0).default(3),
});
export type Limits = z.infer<typeof limitsSchema>;
export const DEFAULT_LIMITS: Limits = limitsSchema.parse({});

export const countersSchema = z.object({
  planRevisions: z.number().default(0),
  agentRuns: z.number().default(0),
  reviewRounds: z.number().default(0),
  /** Clarifying questions asked so far (ask_user). */
  questions: z.number().default(0),
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

/**
 * The folder a run works in, from its configurable settings (`runWorkspace`) over `fallback` (the state's): the CLI
 * passes it with every run, so a session resumed in another checkout (PostgreSQL) works there even in the sub-agent
 * run it was stopped in, whose own state, restored from its checkpoint, still names the folder it started in.
 */
export function workspaceOf(configurable: Readonly<Record<string, unknown>> | undefined, fallback: string): string {
  const raw = configurable?.runWorkspace;
  return typeof raw === "string" && raw !== "" ? raw : fallback;
}

/**
 * The limits a run's configurable settings (`limits`) set, over `fallback` (the state's): the CLI passes a session's
 * current limits with every run, so a `resume` that changes them applies them mid-step too; Studio and API runs may
 * set some of them. Values the limits' schema refuses (a step limit of 0, a fraction) are ignored.
 */
export function limitsOf(configurable: Readonly<Record<string, unknown>> | undefined, fallback: Limits): Limits {
  const raw = configurable?.limits;
  if (typeof raw !== "object" || raw === null) return fallback;
  return parsedLimits(raw, fallback);
}

function parsedLimits(raw: object, fallback: Limits): Limits {
  const parsed = limitsSchema.safeParse({ ...fallback, ...raw });
  return parsed.success ? parsed.data : fallback;
}
