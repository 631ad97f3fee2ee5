import { DeltaValue, MessagesDeltaValue, StateSchema, messagesDeltaReducer } from "@langchain/langgraph";
import { z } from "zod";

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
 * The state of one sub-agent run (its own subgraph, its own checkpoint namespace): the transcript and what the run
 * decides as it goes. Its inputs are runtime context (src/agents/run-context.ts), not state, so the agent is compiled
 * once, mounted in the session graph, and nothing that never changes is checkpointed. What the run did (files
 * changed, commands, usage, the finish call) is read back from the transcript (src/agents/transcript.ts).
 */
export const AgentRunState = new StateSchema({
  /** Per-step deltas in checkpoints, not the whole transcript at every step (nor every 100 steps). */
  messages: RunMessagesValue,
  /** "Always" patterns granted in this session; the approval gate adds new ones. */
  allowPatterns: z.array(z.string()).default(() => []),
  /** The approval decision per tool call id of the newest model reply that had calls to judge. */
  decisions: z.record(z.string(), decisionSchema).default(() => ({})),
  /** The person's answer per ask_user call id in this run (src/agents/middleware/ask-user.ts). */
  answers: z.record(z.string(), z.string()).default(() => ({})),
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
