import fs from "node:fs";
import Database from "better-sqlite3";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Clock } from "../runtime/clock.js";
import { databasePath, dataDir } from "./paths.js";
import { SessionStore } from "./session-store.js";

export interface SessionDatabase {
  db: Database.Database;
  checkpointer: SqliteSaver;
  sessions: SessionStore;
  close(): void;
}

/** One SQLite file per workspace holds both the LangGraph checkpoints and the session index. */
export function openSessionDatabase(workspace: string, clock: Clock): SessionDatabase {
  fs.mkdirSync(dataDir(workspace), { recursive: true });
  const db = new Database(databasePath(workspace));
  db.pragma("journal_mode = WAL");
  // Another process may hold a write briefly (e.g. `sessions` while a run writes): wait, do not fail.
  db.pragma("busy_timeout = 5000");
  const checkpointer = new SqliteSaver(db);
  const sessions = new SessionStore(db, clock);
  return {
    db,
    checkpointer,
    sessions,
    close: () => db.close(),
  };
}
