import type { DeletedRows } from "./delete-session.js";
import type { ForkCopy } from "./fork-session.js";
import type { RecordedTurn, RecordingRow, RecordingStop, RecordingSummary, RecordingWriter } from "./recordings.js";
import type { NewSessionRow, SessionRow, SessionRowFields } from "./session-store.js";

/*
 * Where a workspace's sessions live, whichever the store: the SQLite file in the workspace (src/sessions/sqlite-records.ts)
 * or PostgreSQL (src/sessions/postgres/). Asynchronous, because PostgreSQL is; nothing here loads LangGraph, so
 * `sessions`, `diff` and `undo` stay fast (src/sessions/session-database.ts adds the checkpointer).
 */

export type { SessionRowFields } from "./session-store.js";

/** The session index rows (`mc_sessions`). */
export interface SessionRows {
  create(row: NewSessionRow): Promise<SessionRow>;
  get(id: string): Promise<SessionRow | undefined>;
  /** The most recently updated session of this workspace that has a task (not `new`). */
  latest(): Promise<SessionRow | undefined>;
  /** Newest first: this workspace's, or every workspace's with `all` (the same in a workspace's own SQLite file). */
  list(o?: { all?: boolean; limit?: number }): Promise<SessionRow[]>;
  update(id: string, fields: SessionRowFields): Promise<void>;
}

/** Recorded model calls (src/sessions/recordings.ts has the SQLite ones and the row shapes). */
export interface RecordingRows {
  turns(sessionId: string): Promise<RecordedTurn[]>;
  summary(sessionId: string): Promise<RecordingSummary | undefined>;
  calls(sessionId: string): Promise<RecordingRow[]>;
  /** `onStopped` is told once when recording stops: the size cap, or a write the database refused. */
  writer(sessionId: string, capBytes: number, onStopped: (why: RecordingStop) => void): Promise<RecordingWriter>;
}

/** A session's run lock, held until released (or until its process, or its database connection, goes). */
export interface HeldSessionLock {
  release(): Promise<void>;
  /** Told once if the lock is lost while held (PostgreSQL: its connection broke); the run must then stop. */
  onLost?(listener: (reason: string) => void): void;
}

export interface SessionRecords {
  kind: "sqlite" | "postgres";
  /** Where the rows are, for messages: the SQLite file's path, or host:port/dbname (never a password). */
  label: string;
  sessions: SessionRows;
  recordings: RecordingRows;
  /** Everything a session owns (its row, recording, checkpoints and writes); null when it has no row. */
  deleteSession(id: string): Promise<DeletedRows | null>;
  /** Copies a session's row, recording and checkpoint history into a new id, in one transaction. */
  forkSession(from: string, to: string): Promise<ForkCopy>;
  /** One process runs a session at a time (SessionBusyError when another holds it, src/sessions/session-lock.ts). */
  lockSession(id: string): Promise<HeldSessionLock>;
  /** Who holds the session's lock now ("process 123", or with its host for PostgreSQL), or null when nobody does. */
  holder(id: string): Promise<string | null>;
  /** Why a failed database call failed, as one line, when it is this store's connection (else null). */
  connectionProblem(error: unknown): string | null;
  close(): Promise<void>;
}
