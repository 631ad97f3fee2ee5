import type Database from "better-sqlite3";
import type { Clock } from "../platform/clock.js";

/** `new`: opened (an editor's `session/new`) with its settings, and no task yet; its first message is the task. */
export type SessionRowStatus = "new" | "running" | "interrupted" | "awaiting_approval" | "awaiting_input" | "done" | "failed" | "limit_reached";

export interface SessionRow {
  id: string;
  task: string;
  workspace: string;
  model: string;
  status: SessionRowStatus;
  createdAt: number;
  updatedAt: number;
  inputTokens: number;
  outputTokens: number;
  /** USD at the session's prices; null when unknown (a model without a price, or not recorded yet). */
  costUsd: number | null;
  /** Run options (limits, budget) so `resume` continues with the same settings. */
  options: string;
  /** Turns so far: 1 for the task, one more per follow-up instruction (`resume --message`). */
  turns: number;
  /** The newest follow-up instruction; null while the session has only its task. */
  instruction: string | null;
  /**
   * A `run --worktree` session's workspace inside its git worktree (where its files change); null for a session that
   * works in `workspace` itself, which for a worktree session is the main checkout it was started from.
   */
  worktree: string | null;
  /** The worktree session's branch (`mini-cursor/<id>`); null without a worktree. */
  branch: string | null;
}

/**
 * What a new session's row is made from (the worktree and branch only for `run --worktree`); it starts `running`,
 * or `new` for a session opened without a task (the task is "" until its first message).
 */
export type NewSessionRow = Pick<SessionRow, "id" | "task" | "workspace" | "model" | "options"> &
  Partial<Pick<SessionRow, "worktree" | "branch">> & { status?: "new" | "running" };

/** An `mc_sessions` row as a driver returns it: PostgreSQL's driver gives BIGINT columns as text. */
export interface RawSessionRow {
  id: string;
  task: string;
  workspace: string;
  model: string;
  status: SessionRowStatus;
  created_at: number | string;
  updated_at: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
  cost_usd: number | null;
  options: string;
  turns: number | null;
  instruction: string | null;
  worktree?: string | null;
  branch?: string | null;
}

/** The row of either database (SQLite's or PostgreSQL's) as a SessionRow. */
export function sessionRowFromRaw(r: RawSessionRow): SessionRow {
  return {
    id: r.id,
    task: r.task,
    workspace: r.workspace,
    model: r.model,
    status: r.status,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    costUsd: r.cost_usd ?? null,
    options: r.options,
    turns: r.turns ?? 1,
    instruction: r.instruction ?? null,
    worktree: r.worktree ?? null,
    branch: r.branch ?? null,
  };
}

/** The fields an update may change, and their columns. */
const UPDATABLE_COLUMNS = {
  task: "task",
  status: "status",
  inputTokens: "input_tokens",
  outputTokens: "output_tokens",
  costUsd: "cost_usd",
  model: "model",
  options: "options",
  turns: "turns",
  instruction: "instruction",
  workspace: "workspace",
} as const;

export type SessionRowFields = Partial<Pick<SessionRow, keyof typeof UPDATABLE_COLUMNS>>;

/** The columns an update sets (the given fields, then `updated_at`) and their values, in order. */
export function rowAssignments(fields: SessionRowFields): { columns: string[]; values: (string | number | null)[] } {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [field, column] of Object.entries(UPDATABLE_COLUMNS) as [keyof SessionRowFields, string][]) {
    const value = fields[field];
    if (value === undefined) continue;
    columns.push(column);
    values.push(value);
  }
  columns.push("updated_at");
  return { columns, values };
}

/**
 * Databases made before a column existed get it (another process may add it at the same moment): costs, then the
 * turns and latest instruction of follow-ups, the worktree and branch of `run --worktree`.
 */
const ADDED_COLUMNS: readonly (readonly [string, string])[] = [
  ["cost_usd", "REAL"],
  ["turns", "INTEGER NOT NULL DEFAULT 1"],
  ["instruction", "TEXT"],
  ["worktree", "TEXT"],
  ["branch", "TEXT"],
];

function addColumns(db: Database.Database): void {
  const columns = new Set((db.prepare("PRAGMA table_info(mc_sessions)").all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of ADDED_COLUMNS) {
    if (columns.has(name)) continue;
    try {
      db.exec(`ALTER TABLE mc_sessions ADD COLUMN ${name} ${type}`);
    } catch (error) {
      if (!(error instanceof Error && /duplicate column/i.test(error.message))) throw error;
    }
  }
}

/**
 * The session index: one small row per session beside the checkpoints (same SQLite file), so
 * `mini-cursor sessions` can list them without loading any graph state.
 */
export class SessionStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS mc_sessions (
      id TEXT PRIMARY KEY,
      task TEXT NOT NULL,
      workspace TEXT NOT NULL,
      model TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      options TEXT NOT NULL DEFAULT '{}',
      cost_usd REAL
    )`);
    addColumns(db);
  }

  create(row: NewSessionRow): SessionRow {
    const now = this.clock.now();
    this.db
      .prepare(
        "INSERT INTO mc_sessions (id, task, workspace, model, status, created_at, updated_at, options, worktree, branch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(row.id, row.task, row.workspace, row.model, row.status ?? "running", now, now, row.options, row.worktree ?? null, row.branch ?? null);
    const created = this.get(row.id);
    if (!created) throw new Error(`session ${row.id} was not stored`);
    return created;
  }

  get(id: string): SessionRow | undefined {
    const raw = this.db.prepare("SELECT * FROM mc_sessions WHERE id = ?").get(id) as RawSessionRow | undefined;
    return raw ? sessionRowFromRaw(raw) : undefined;
  }

  /** The newest session with a task: one opened and never given one has nothing to resume, diff or replay. */
  latest(): SessionRow | undefined {
    const raw = this.db.prepare("SELECT * FROM mc_sessions WHERE status <> 'new' ORDER BY updated_at DESC, rowid DESC LIMIT 1").get() as
      RawSessionRow | undefined;
    return raw ? sessionRowFromRaw(raw) : undefined;
  }

  list(limit = 50): SessionRow[] {
    const rows = this.db.prepare("SELECT * FROM mc_sessions ORDER BY updated_at DESC, rowid DESC LIMIT ?").all(limit) as RawSessionRow[];
    return rows.map(sessionRowFromRaw);
  }

  update(id: string, fields: SessionRowFields): void {
    const { columns, values } = rowAssignments(fields);
    // Only the columns given: a face changing a session's options never writes back a status read a moment before.
    this.db.prepare(`UPDATE mc_sessions SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`).run(...values, this.clock.now(), id);
  }
}
