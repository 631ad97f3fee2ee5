import fs from "node:fs";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Clock } from "../platform/clock.js";
import { ensureDataDir } from "./data-dir.js";
import { databasePath } from "./paths.js";
import { openSessionIndex, type SessionIndex } from "./session-index.js";

/** Only the commands that read or write checkpoints (`run`, `resume`) import this module: it loads LangGraph. */
export interface SessionDatabase extends SessionIndex {
  checkpointer: SqliteSaver;
}

/** One SQLite file per workspace holds both the LangGraph checkpoints and the session index. */
export function openSessionDatabase(workspace: string, clock: Clock): SessionDatabase {
  ensureDataDir(workspace);
  const index = openSessionIndex(workspace, clock);
  try {
    return { ...index, checkpointer: new SqliteSaver(index.db) };
  } catch (error) {
    index.close();
    throw error;
  }
}

/** The database if the workspace has one: commands that only read must not create `.mini-cursor/`. */
export function openExistingSessionDatabase(workspace: string, clock: Clock): SessionDatabase | null {
  return fs.existsSync(databasePath(workspace)) ? openSessionDatabase(workspace, clock) : null;
}
