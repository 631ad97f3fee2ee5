import { silentSink } from "../core/index.js";
import { compileGraph } from "../graph/build-graph.js";
import type { WorkspaceStateValue } from "../graph/state.js";
import { memoryOff } from "../memory/types.js";
import type { ModelProvider } from "../models/chat-model.js";
import type { RunStore } from "../sessions/run-store.js";

/** A graph that runs nothing, to read a session's state (before deciding how to continue it, or to show it). */
export async function readSessionState(database: RunStore, sessionId: string): Promise<WorkspaceStateValue> {
  const inert: ModelProvider = {
    forRole: () => {
      throw new Error("reading state only");
    },
    describe: () => "",
  };
  const graph = compileGraph({ models: inert, events: silentSink, memory: memoryOff }, database.checkpointer);
  return (await graph.getState({ configurable: { thread_id: sessionId } })).values as WorkspaceStateValue;
}

/** Whether the session has a checkpoint (a session killed before its first one starts again from its task). */
export async function hasCheckpoint(database: RunStore, sessionId: string): Promise<boolean> {
  const tuple = await database.checkpointer.getTuple({ configurable: { thread_id: sessionId, checkpoint_ns: "" } });
  return tuple !== undefined;
}
