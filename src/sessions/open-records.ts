import fs from "node:fs";
import { resolveDatabaseTarget } from "../platform/config/database-settings.js";
import type { Clock } from "../platform/clock.js";
import { ensureDataDir } from "./data-dir.js";
import { databasePath } from "./paths.js";
import { openSessionIndex } from "./session-index.js";
import type { SessionRecords } from "./session-records.js";
import { sqliteRecords } from "./sqlite-records.js";

export interface OpenRecordsOptions {
  /** Make the store if there is none yet (SQLite: `.mini-cursor/sessions.sqlite`); else null when there is none. */
  create: boolean;
}

/**
 * The sessions of `workspace`, wherever they are configured to live: PostgreSQL when MINI_CURSOR_DATABASE_URL (or
 * `database` in a config file) is set, its driver loaded only then; else the workspace's SQLite file, which commands
 * that only read do not create (null). No LangGraph here: `sessions`, `diff` and `undo` stay fast.
 */
export async function openSessionRecords(workspace: string, env: NodeJS.ProcessEnv, clock: Clock, o: OpenRecordsOptions): Promise<SessionRecords | null> {
  const target = resolveDatabaseTarget(env, workspace);
  if (target) {
    const { openPostgresRecords } = await import("./postgres/postgres-records.js");
    return openPostgresRecords(target, workspace, clock);
  }
  if (!o.create && !fs.existsSync(databasePath(workspace))) return null;
  if (o.create) ensureDataDir(workspace);
  return sqliteRecords(openSessionIndex(workspace, clock), workspace, clock);
}
