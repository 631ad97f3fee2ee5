import { DeltaValue, MessagesDeltaValue, StateSchema, messagesDeltaReducer } from "@langchain/langgraph";
import { z } from "zod";
import { DEFAULT_LIMITS, limitsOf, safetyOf, safetyPolicySchema, usageBaseSchema, workspaceOf } from "../core/index.js";

/**
 * The transcript as per-step deltas with no periodic full copy. LangGraph's default (a snapshot of the whole list
 * every 100 updates) makes checkpoint bytes per call grow with the run: the snapshots of a 200-call run were 1 MB,
 * more than every result stored once. Replay on resume stays bounded without them: a run has a namespace of its own,
 * so its walk is at most the run (capped by its model-call limit), and LangGraph still snapshots a channel after 5000
 * supersteps (DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT).
 */
export const RunMessagesValue = new DeltaValue(MessagesDeltaValue.valueSchema, {
  inputSchema: MessagesDeltaValue.inputSchema,
  reducer: messagesDeltaReducer,
  snapshotFrequency: Number.MAX_SAFE_INTEGER,
  jsonSchemaExtra: MessagesDeltaValue.jsonSchemaExtra,
});

/**
 * A run input that does not change during the run (workspace, settings, the usage before it). SqliteSaver stores
 * every plain channel in every checkpoint (about 700 bytes a step for these); as a delta channel it is stored once,
 * with the write that set it, and read back by the same replay as the transcript. The last write wins.
 */
function runInput<T>(schema: z.ZodType<T>) {
  return new DeltaValue(schema, { reducer: (current: T, writes: T[]) => (writes.length > 0 ? (writes[writes.length - 1] as T) : current), snapshotFrequency: Number.MAX_SAFE_INTEGER });
}

export const runStopSchema = z.object({ kind: z.enum(["loop", "budget", "call_limit"]), detail: z.string() });
export type RunStop = z.infer<typeof runStopSchema>;

/**
 * One tool call's approval decision, made once (src/agents/middleware/approval.ts). "ask" is recorded when the reply
 * arrives and becomes "approve" or "reject" with the person's answer.
 */
export const decisionSchema = z.object({
  decision: z.enum(["approve", "reject", "deny", "ask"]),
  /** Why it was denied or rejected; for an "ask", why it is asked in every mode (or the MCP server's name). */
  reason: z.string(),
  /** File tools: where the write was judged to land (workspace-relative); approved by a person, the only place it may. */
  landing: z.string().optional(),
  /** An "ask" only the approval mode makes (ask mode, or approve-file-changes); a face may answer it from the mode. */
  modeOnly: z.boolean().optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

/**
 * The state of one sub-agent run (its own subgraph, its own checkpoint namespace). The run's inputs travel here,
 * not in closures, so the agent is compiled once and mounted in the session graph. What the run did (files changed,
 * commands, usage, the finish call) is read back from the transcript (src/agents/transcript.ts) instead of being
 * copied into extra channels at every step.
 */
export const AgentRunState = new StateSchema({
  /** Per-step deltas in checkpoints, not the whole transcript at every step (nor every 100 steps). */
  messages: RunMessagesValue,
  workspace: runInput(z.string().default("")),
  stepId: runInput(z.string().default("")),
  safety: runInput(safetyPolicySchema.default(() => safetyPolicySchema.parse({}))),
  /** "Always" patterns granted in this session; the approval gate adds new ones. */
  allowPatterns: z.array(z.string()).default(() => []),
  maxModelCalls: runInput(z.number().default(30)),
  maxPromptTokens: runInput(z.number().default(32_000)),
  /** Session usage before this run, summed (small: it is in every checkpoint of the run), for the budget and totals. */
  usageBase: runInput(usageBaseSchema.default(() => usageBaseSchema.parse({}))),
  /** The approval decision per tool call id of the newest model reply that had calls to judge. */
  decisions: z.record(z.string(), decisionSchema).default(() => ({})),
  /** The person's answer per ask_user call id in this run (src/agents/middleware/ask-user.ts). */
  answers: z.record(z.string(), z.string()).default(() => ({})),
  /** Questions the session asked before this run, and how many it may ask in all. */
  questions: runInput(z.object({ asked: z.number(), max: z.number() }).default(() => ({ asked: 0, max: 3 }))),
  /** Why the run was stopped early: the loop guard, the session budget or the model-call limit. */
  stop: runStopSchema.nullable().default(null),
  /** The finish-tool reminder was given (once per run). */
  nudged: z.boolean().default(false),
});

/**
 * AgentRunState without the transcript: the state a model-call wrap sees besides the request's messages
 * (middleware/model-call.ts reads it from the model node's input rather than declaring it to LangChain, which would
 * rebuild and parse a schema of it on every model call).
 */
const { messages: _transcript, ...runFields } = AgentRunState.fields;
export const ModelCallState = new StateSchema(runFields);

export type AgentRunValue = typeof AgentRunState.State;
export type AgentRunUpdate = typeof AgentRunState.Update;

/**
 * The run state with the settings of the run's configurable (`safety`, `limits`, `runWorkspace`) in place of its
 * own: a session resumed with new settings, or in another checkout, applies them to the sub-agent run it stopped in,
 * whose own state still has the old ones (src/core: safetyOf, limitsOf, workspaceOf). Read-only: never returned as
 * an update.
 */
export function withRunSettings(state: AgentRunValue, configurable: Readonly<Record<string, unknown>> | undefined): AgentRunValue {
  if (configurable?.safety === undefined && configurable?.limits === undefined && configurable?.runWorkspace === undefined) return state;
  const safety = safetyOf(configurable, state.safety);
  const own = { maxModelCallsPerRun: state.maxModelCalls, maxPromptTokens: state.maxPromptTokens };
  const limits = limitsOf(configurable, { ...DEFAULT_LIMITS, ...own });
  const workspace = workspaceOf(configurable, state.workspace);
  return { ...state, safety, workspace, maxModelCalls: limits.maxModelCallsPerRun, maxPromptTokens: limits.maxPromptTokens };
}
