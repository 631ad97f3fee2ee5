import type pg from "pg";

/** The first key of every advisory lock mini-cursor takes ("mc"), so they cannot meet other applications' locks. */
export const LOCK_SPACE = 0x6d63;
/** The second key of the lock that serializes schema changes (session locks hash their id: src/sessions/postgres/session-lock.ts). */
const SCHEMA_LOCK = 0;

/**
 * mini-cursor's own tables, one entry per schema version: version N is the state after the first N entries. Later
 * versions append entries (never edit one), and `migrate` runs the ones a database has not had yet. LangGraph's
 * checkpoint tables are the saver's (`PostgresSaver.setup`, with its own `checkpoint_migrations`).
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS mc_sessions (
    seq BIGSERIAL,
    id TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    workspace TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    cost_usd DOUBLE PRECISION,
    options TEXT NOT NULL DEFAULT '{}',
    turns INTEGER NOT NULL DEFAULT 1,
    instruction TEXT
  );
  CREATE INDEX IF NOT EXISTS mc_sessions_workspace ON mc_sessions (workspace, updated_at DESC);
  CREATE TABLE IF NOT EXISTS mc_model_calls (
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    step TEXT,
    model TEXT NOT NULL DEFAULT '',
    format INTEGER NOT NULL,
    request BYTEA NOT NULL,
    response BYTEA NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE TABLE IF NOT EXISTS mc_recordings (
    session_id TEXT PRIMARY KEY,
    calls INTEGER NOT NULL DEFAULT 0,
    bytes BIGINT NOT NULL DEFAULT 0,
    truncated BOOLEAN NOT NULL DEFAULT FALSE
  );
  CREATE TABLE IF NOT EXISTS mc_recording_turns (
    session_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    instruction TEXT NOT NULL,
    PRIMARY KEY (session_id, first_seq)
  );`,
  // 2: `run --worktree` sessions: their workspace inside the git worktree, and the branch.
  `ALTER TABLE mc_sessions ADD COLUMN IF NOT EXISTS worktree TEXT;
  ALTER TABLE mc_sessions ADD COLUMN IF NOT EXISTS branch TEXT;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Runs `work` while holding the schema lock: processes starting at once (four sessions) change the schema one by one. */
export async function withSchemaLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_SPACE, SCHEMA_LOCK]);
    try {
      return await work(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_SPACE, SCHEMA_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** Brings mini-cursor's tables to SCHEMA_VERSION; refuses a database that a newer mini-cursor has migrated. */
export async function migrate(client: pg.PoolClient): Promise<void> {
  await client.query(
    "CREATE TABLE IF NOT EXISTS mc_schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL, updated_at TIMESTAMPTZ NOT NULL DEFAULT now())",
  );
  const found = await client.query<{ version: number }>("SELECT version FROM mc_schema_version WHERE component = 'sessions'");
  const current = found.rows[0]?.version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`the session database has schema version ${current}, newer than this mini-cursor's ${SCHEMA_VERSION}: upgrade mini-cursor`);
  }
  if (current === SCHEMA_VERSION) return;
  await client.query("BEGIN");
  try {
    for (const step of MIGRATIONS.slice(current)) await client.query(step);
    await client.query(
      "INSERT INTO mc_schema_version (component, version) VALUES ('sessions', $1) ON CONFLICT (component) DO UPDATE SET version = excluded.version, updated_at = now()",
      [SCHEMA_VERSION],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
