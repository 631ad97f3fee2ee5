import fs from "node:fs";
import Database from "better-sqlite3";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Clock } from "../runtime/clock.js";
import { ConfigError } from "../runtime/config-file.js";
import { ensureDataDir, workspaceDataError } from "./data-dir.js";
import { databasePath } from "./paths.js";
import { SessionStore } from "./session-store.js";

export interface SessionDatabase {
  db: Database.Database;
  checkpointer: SqliteSaver;
  sessions: SessionStore;
  close(): void;
}

/** SQLite's words for a database file it cannot create or write. */
const SQLITE_UNWRITABLE = /^SQLITE_(READONLY|CANTOPEN|PERM|IOERR)/;

/** One SQLite file per workspace holds both the LangGraph checkpoints and the session index. */
export function openSessionDatabase(workspace: string, clock: Clock): SessionDatabase {
  ensureDataDir(workspace);
  let db: Database.Database | undefined;
  try {
    db = new Database(databasePath(workspace));
    db.pragma("journal_mode = WAL");
    // Another process may hold a write briefly (e.g. `sessions` while a run writes): wait, do not fail.
    db.pragma("busy_timeout = 5000");
    const checkpointer = new SqliteSaver(db);
    const sessions = new SessionStore(db, clock);
    const opened = db;
    return { db: opened, checkpointer, sessions, close: () => opened.close() };
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && SQLITE_UNWRITABLE.test(code)) {
      throw new ConfigError(`workspace ${workspace} is not writable: cannot open ${databasePath(workspace)} (${code}); use a writable folder (--workspace DIR)`);
    }
    throw workspaceDataError(workspace, error);
  }
}

/** The database if the workspace has one: commands that only read must not create `.mini-cursor/`. */
export function openExistingSessionDatabase(workspace: string, clock: Clock): SessionDatabase | null {
  return fs.existsSync(databasePath(workspace)) ? openSessionDatabase(workspace, clock) : null;
}
