import type pg from "pg";
import type { Clock } from "../../platform/clock.js";
import type { SessionRowFields, SessionRows } from "../session-records.js";
import { rowAssignments, sessionRowFromRaw, type RawSessionRow } from "../session-store.js";

const COLUMNS =
  "id, task, workspace, model, status, created_at, updated_at, input_tokens, output_tokens, cost_usd, options, turns, instruction, worktree, branch";

/** `mc_sessions` in PostgreSQL: every workspace's sessions in one table; `latest` and `list` keep to `workspace` unless told. */
export function postgresSessionRows(pool: pg.Pool, workspace: string, clock: Clock): SessionRows {
  const get = async (id: string) => {
    const { rows } = await pool.query<RawSessionRow>(`SELECT ${COLUMNS} FROM mc_sessions WHERE id = $1`, [id]);
    return rows[0] ? sessionRowFromRaw(rows[0]) : undefined;
  };
  return {
    async create(row) {
      const now = clock.now();
      await pool.query(
        "INSERT INTO mc_sessions (id, task, workspace, model, status, created_at, updated_at, options, worktree, branch) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9)",
        [row.id, row.task, row.workspace, row.model, row.status ?? "running", now, row.options, row.worktree ?? null, row.branch ?? null],
      );
      const created = await get(row.id);
      if (!created) throw new Error(`session ${row.id} was not stored`);
      return created;
    },
    get,
    async latest() {
      const { rows } = await pool.query<RawSessionRow>(
        `SELECT ${COLUMNS} FROM mc_sessions WHERE workspace = $1 AND status <> 'new' ORDER BY updated_at DESC, seq DESC LIMIT 1`,
        [workspace],
      );
      return rows[0] ? sessionRowFromRaw(rows[0]) : undefined;
    },
    async list(o) {
      const limit = o?.limit ?? 50;
      const { rows } = o?.all
        ? await pool.query<RawSessionRow>(`SELECT ${COLUMNS} FROM mc_sessions ORDER BY updated_at DESC, seq DESC LIMIT $1`, [limit])
        : await pool.query<RawSessionRow>(`SELECT ${COLUMNS} FROM mc_sessions WHERE workspace = $1 ORDER BY updated_at DESC, seq DESC LIMIT $2`, [
            workspace,
            limit,
          ]);
      return rows.map(sessionRowFromRaw);
    },
    async update(id, fields: SessionRowFields) {
      const { columns, values } = rowAssignments(fields);
      // Only the columns given: a face changing a session's options never writes back a status read a moment before.
      const set = columns.map((c, i) => `${c} = $${i + 1}`).join(", ");
      await pool.query(`UPDATE mc_sessions SET ${set} WHERE id = $${columns.length + 1}`, [...values, clock.now(), id]);
    },
  };
}
