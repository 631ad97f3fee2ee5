import { resolveDatabaseTarget, type PostgresTarget } from "../../../platform/config/database-settings.js";
import { databasePath } from "../../../sessions/paths.js";
import { errorMessage } from "../../../platform/error-info.js";

/** Where sessions would live here and, for PostgreSQL, whether it answers. Creates nothing (no schema either). */
export type SessionsReport =
  | { ok: true; kind: "sqlite"; path: string }
  | { ok: boolean; kind: "postgres"; database: string; detail: string }
  | { ok: false; kind: "unknown"; error: string };

export async function checkSessions(workspace: string, env: NodeJS.ProcessEnv): Promise<SessionsReport> {
  let target: PostgresTarget | null;
  try {
    target = resolveDatabaseTarget(env, workspace);
  } catch (error) {
    return { ok: false, kind: "unknown", error: errorMessage(error) };
  }
  if (!target) return { ok: true, kind: "sqlite", path: databasePath(workspace) };
  const { openPool } = await import("../../../sessions/postgres/connection.js");
  const { SCHEMA_VERSION } = await import("../../../sessions/postgres/schema.js");
  try {
    const pool = await openPool(target);
    try {
      const { rows } = await pool.query<{ version: number | null }>(
        "SELECT CASE WHEN to_regclass('mc_schema_version') IS NULL THEN NULL ELSE (SELECT version FROM mc_schema_version WHERE component = 'sessions') END AS version",
      );
      const version = rows[0]?.version ?? null;
      const schema =
        version === null
          ? "no tables yet (created by the first session)"
          : `schema version ${version}${version > SCHEMA_VERSION ? `, newer than this mini-cursor's ${SCHEMA_VERSION}: upgrade mini-cursor` : ""}`;
      return { ok: version === null || version <= SCHEMA_VERSION, kind: "postgres", database: target.label, detail: `reachable; ${schema}` };
    } finally {
      await pool.end().catch(() => {});
    }
  } catch (error) {
    return { ok: false, kind: "postgres", database: target.label, detail: errorMessage(error) };
  }
}

export function renderSessions(r: SessionsReport): string {
  if (r.kind === "sqlite") return `ok    SQLite in ${r.path}`;
  if (r.kind === "unknown") return `FAIL  ${r.error}`;
  return `${r.ok ? "ok  " : "FAIL"}  PostgreSQL ${r.database}: ${r.detail}`;
}
