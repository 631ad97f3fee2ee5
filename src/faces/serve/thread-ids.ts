import { v5 as uuidv5 } from "@langchain/core/utils/uuid";

/** Fixed: a session's thread id must be the same in every process and release. */
const SESSION_NAMESPACE = "3f0e4c1a-7b52-4d2e-9a61-5d0c2b8e9f10";
/** langgraph-api's own namespace for assistant ids made from a graph's name (its graph loader), so ids match a `langgraph dev`'s. */
const GRAPH_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/**
 * The Agent Server API names threads by UUID; a session's id (`20261205-103123-7406`) is the checkpointer's thread id.
 * A session's thread id is derived from its id (UUIDv5), so nothing new is stored and every face agrees on it.
 */
export function threadIdOf(sessionId: string): string {
  return uuidv5(sessionId, SESSION_NAMESPACE);
}

export function assistantIdOf(graphId: string): string {
  return uuidv5(graphId, GRAPH_NAMESPACE);
}
