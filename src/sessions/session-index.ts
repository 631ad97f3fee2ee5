import fs from "node:fs";
import Database from "better-sqlite3";
import type { Clock } from "../platform/clock.js";
import { ConfigError } from "../platform/config-file.js";
import { damagedDatabaseLine, noteOpenedDatabase, workspaceDataError } from "./data-errors.js";
import { databasePath } from "./paths.js";
import { SessionStore } from "./session-store.js";
import { sqliteAddonPath } from "../platform/sqlite-addon.js";

/**
 * The workspace's SQLite file opened for its session rows only. Plain better-sqlite3: listing rows (`sessions`,
 * `diff`, `undo`) must not pay for importing LangGraph's checkpoint saver, which takes most of a second, nor for
 * the git helpers that create the data folder (src/sessions/data-dir.ts).
 */
export interface SessionIndex {
  db: Database.Database;
  sessions: SessionStore;
  close(): void;
}

/** SQLite's words for a database file it cannot create or write. */
const SQLITE_UNWRITABLE = /^SQLITE_(READONLY|CANTOPEN|PERM|IOERR)/;

/** Opens (or creates) the index file; its folder must exist: `ensureDataDir` first when it may not. */
export function openSessionIndex(workspace: string, clock: Clock): SessionIndex {
  let db: Database.Database | undefined;
  try {
    const nativeBinding = sqliteAddonPath();
    noteOpenedDatabase(databasePath(workspace));
    db = new Database(databasePath(workspace), nativeBinding ? { nativeBinding } : {});
    db.pragma("journal_mode = WAL");
    // Every graph step commits a checkpoint: in WAL mode NORMAL skips the fsync per commit. A killed or crashed
    // process still loses nothing committed (the WAL is in the OS's cache); only an OS crash or power loss can roll
    // back the last steps, and the file stays consistent, so the session resumes from an earlier step.
    db.pragma("synchronous = NORMAL");
    // Another process may hold a write briefly (e.g. `sessions` while a run writes): wait, do not fail.
    db.pragma("busy_timeout = 5000");
    const sessions = new SessionStore(db, clock);
    const opened = db;
    return { db: opened, sessions, close: () => opened.close() };
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && SQLITE_UNWRITABLE.test(code)) {
      throw new ConfigError(
        `workspace ${workspace} is not writable: cannot open ${databasePath(workspace)} (${code}); use a writable folder (--workspace DIR)`,
      );
    }
    const damaged = damagedDatabaseLine(error);
    if (damaged !== undefined) throw new ConfigError(damaged);
    throw workspaceDataError(workspace, error);
  }
}

/** The index if the workspace has a database: commands that only read must not create `.mini-cursor/`. */
export function openExistingSessionIndex(workspace: string, clock: Clock): SessionIndex | null {
  return fs.existsSync(databasePath(workspace)) ? openSessionIndex(workspace, clock) : null;
}
