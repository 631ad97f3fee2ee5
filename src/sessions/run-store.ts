import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { SessionRecords } from "./session-records.js";

/** LangGraph's id for writes that belong to no task (src/sessions/pending-settings.ts). */
export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/**
 * What running a session needs: its records and LangGraph's checkpointer over the same store (SqliteSaver on the
 * workspace's file, or PostgresSaver). Only the commands that read or write checkpoints import this: it loads LangGraph.
 */
export interface RunStore extends SessionRecords {
  checkpointer: BaseCheckpointSaver;
  /** Drops writes without a task on `channels` at a checkpoint (settings queued by an earlier resume). */
  dropQueuedWrites(threadId: string, checkpointId: string, channels: readonly string[]): Promise<void>;
}
