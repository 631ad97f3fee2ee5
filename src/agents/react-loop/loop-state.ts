import { MessagesDeltaValue, ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";

const commandSchema = z.object({
  command: z.string(),
  cwd: z.string(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
});

/** The private state of one sub-agent run: its own transcript plus what its tools did. */
export const LoopState = new StateSchema({
  messages: MessagesDeltaValue,
  modelCalls: z.number().default(0),
  nudged: z.boolean().default(false),
  finish: z.record(z.string(), z.unknown()).nullable().default(null),
  stopReason: z.enum(["", "finished", "text", "call_limit", "loop", "budget"]).default(""),
  /** Why the run was stopped early (loop detection), for the report. */
  stopDetail: z.string().default(""),
  /** Loop detection: identical calls since the last file change, failures in a row, whether the agent was told. */
  callCounts: z.record(z.string(), z.number()).default(() => ({})),
  failStreak: z.number().default(0),
  loopWarned: z.boolean().default(false),
  /** The prompt was cut down to fit the budget at least once (said once). */
  compacted: z.boolean().default(false),
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  /** Calls whose reply carried no usage data (their tokens are chars/4 estimates). */
  estimatedCalls: z.number().default(0),
  /** The approval gate's verdict per tool call id of the newest model reply. */
  decisions: z.record(z.string(), z.object({ decision: z.enum(["approve", "reject", "deny"]), reason: z.string() })).default(() => ({})),
  /** Command patterns a person allowed "always" for the rest of the session. */
  allowPatterns: z.array(z.string()).default(() => []),
  filesChanged: new ReducedValue(z.array(z.string()).default(() => []), {
    inputSchema: z.array(z.string()),
    reducer: (a: string[], b: string[]) => [...new Set([...a, ...b])],
  }),
  commands: new ReducedValue(z.array(commandSchema).default(() => []), {
    inputSchema: z.array(commandSchema),
    reducer: (a, b) => a.concat(b),
  }),
});

export type LoopStateValue = typeof LoopState.State;
export type LoopStateUpdate = typeof LoopState.Update;
