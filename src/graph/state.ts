import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import {
  agentReportSchema,
  caps,
  commandRecordSchema,
  countersSchema,
  DEFAULT_SAFETY,
  findingSchema,
  foldedStepsSchema,
  limitsSchema,
  planStepSchema,
  reviewSchema,
  routeSchema,
  safetyPolicySchema,
  sessionStatusSchema,
  stopReasonSchema,
  usageByKeySchema,
} from "../core/index.js";
import { addUsage } from "../models/cost/usage.js";

/** Append, keeping only the newest `max` entries so the channel stays bounded. */
function appendCapped<T>(max: number) {
  return (current: T[], next: T[]): T[] => {
    const merged = current.concat(next);
    return merged.length > max ? merged.slice(merged.length - max) : merged;
  };
}

function unionCapped(max: number) {
  return (current: string[], next: string[]): string[] => {
    const merged = [...new Set([...current, ...next])];
    return merged.length > max ? merged.slice(merged.length - max) : merged;
  };
}

/** One follow-up turn: its instruction, how the turn before it ended, and the usage before it (budgets count per turn). */
export const turnSchema = z.object({
  number: z.number(),
  instruction: z.string(),
  previousOutcome: z.string(),
  usageBefore: z.object({ tokens: z.number(), usd: z.number() }),
});
export type Turn = z.infer<typeof turnSchema>;

/**
 * The typed shared workspace state of one session (one LangGraph thread).
 * Large payloads (file contents, command output, transcripts) never enter it: sub-agents keep their
 * transcripts in their own subgraph and return a compact report.
 */
export const WorkspaceState = new StateSchema({
  task: z.string().default(""),
  workspace: z.string().default(""),
  /** The plan: pending steps and the newest finished ones (older finished steps are counted in foldedSteps). */
  plan: z.array(planStepSchema).default(() => []),
  foldedSteps: foldedStepsSchema.default(() => foldedStepsSchema.parse({})),
  /**
   * The step being started, announced once by the planner when it routes to it, with the project context for the
   * agent's brief (so an agent node that re-runs after an approval does not announce or compute it again).
   */
  stepStart: z.object({ stepId: z.string(), context: z.string() }).nullable().default(null),
  /** Step the planner routed to; read by the sub-agent node. */
  currentStepId: z.string().nullable().default(null),
  route: routeSchema.nullable().default(null),
  /** The newest sub-agent report, consumed by the planner on its next turn. */
  lastReport: agentReportSchema.nullable().default(null),
  findings: new ReducedValue(
    z.array(findingSchema).default(() => []),
    {
      inputSchema: z.array(findingSchema),
      reducer: appendCapped(caps.findings),
    },
  ),
  filesChanged: new ReducedValue(
    z.array(z.string()).default(() => []),
    {
      inputSchema: z.array(z.string()),
      reducer: unionCapped(caps.filesChanged),
    },
  ),
  commands: new ReducedValue(
    z.array(commandRecordSchema).default(() => []),
    {
      inputSchema: z.array(commandRecordSchema),
      reducer: appendCapped(caps.commands),
    },
  ),
  reviews: new ReducedValue(
    z.array(reviewSchema).default(() => []),
    {
      inputSchema: z.array(reviewSchema),
      reducer: appendCapped(caps.reviews),
    },
  ),
  /** Tokens per `agent:model`, summed (src/models/cost/usage.ts). */
  usage: new ReducedValue(
    usageByKeySchema.default(() => ({})),
    {
      inputSchema: usageByKeySchema,
      reducer: addUsage,
    },
  ),
  /** Long-term memories recalled for this task (filled by the memory store; empty when memory is off). */
  memories: z.array(z.string()).default(() => []),
  /** Memories were recalled for this task (planner turns skip it while memory is still opening). */
  memoriesRecalled: z.boolean().default(false),
  limits: limitsSchema.default(() => limitsSchema.parse({})),
  /** Approval mode and command rules for this session. */
  safety: safetyPolicySchema.default(() => DEFAULT_SAFETY),
  /** Command patterns a person allowed "always" during this session. */
  approvedPatterns: new ReducedValue(
    z.array(z.string()).default(() => []),
    {
      inputSchema: z.array(z.string()),
      reducer: unionCapped(50),
    },
  ),
  counters: countersSchema.default(() => countersSchema.parse({})),
  /**
   * Reviews in a row that ended without a verdict (a verdict resets it). The planner ends the session at
   * MAX_REVIEWS_WITHOUT_VERDICT rather than adding the same review again until a run limit (src/graph/nodes/planner).
   */
  reviewsWithoutVerdict: z.number().default(0),
  status: sessionStatusSchema.default("running"),
  /** Why the session stopped early, when it did (data: a budget stop can be continued with a higher budget). */
  stop: stopReasonSchema.nullable().default(null),
  /** Set when `resume` continued the session after a stop: how often, and after which stop last (src/graph/continue-session.ts). */
  continued: z.object({ times: z.number(), after: stopReasonSchema }).nullable().default(null),
  /**
   * The newest follow-up instruction (`resume --message`, src/graph/follow-up.ts): turn 1 is the task and has none.
   * Only the latest turn is kept (the earlier work is in the plan, findings, files and reviews), so it stays small.
   */
  turn: turnSchema.nullable().default(null),
  /** A question the planner asked the person (ask_user), waiting for the answer: the planner asks it on its next run. */
  plannerQuestion: z
    .object({ id: z.string(), question: z.string(), choices: z.array(z.string()) })
    .nullable()
    .default(null),
  /** The person's answers to the planner's questions, shown to the planner on every later turn. */
  answers: z.array(z.object({ question: z.string(), answer: z.string() })).default(() => []),
  /** The planner's closing summary. */
  summary: z.string().default(""),
  finalReport: z.string().default(""),
});

export type WorkspaceStateValue = typeof WorkspaceState.State;
export type WorkspaceStateUpdate = typeof WorkspaceState.Update;
