import type { ListSessionsResponse } from "@agentclientprotocol/sdk";
import { shownTask } from "../../core/text.js";
import type { Clock } from "../../platform/clock.js";
import { openSessionRecords } from "../../sessions/open-records.js";
import { invalidParams } from "./request-errors.js";

/** Sessions per page of `session/list`. */
export const SESSION_PAGE = 50;
/** How far back a listing goes (the newest first), as `mini-cursor sessions` shows them. */
const MAX_LISTED = 1_000;

/** The cursor is the offset of the next page, opaque to the editor. */
function offsetOf(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  const match = /^o(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw invalidParams(`unknown cursor "${cursor}": pass the nextCursor of an earlier session/list answer`);
  return Number(match[1]);
}

const cursorFor = (offset: number): string => Buffer.from(`o${offset}`, "utf8").toString("base64url");

/**
 * `session/list`: the sessions of a workspace, newest first, as `mini-cursor sessions` lists them (any face's:
 * the CLI's, the editor's, a replay's), a page at a time. Without `cwd`, the agent's own folder; with sessions in
 * PostgreSQL, every workspace's. Creates nothing: a folder without sessions lists none.
 */
export async function listSessions(
  workspace: string,
  all: boolean,
  cursor: string | null | undefined,
  env: NodeJS.ProcessEnv,
  clock: Clock,
): Promise<ListSessionsResponse> {
  const offset = offsetOf(cursor);
  const records = await openSessionRecords(workspace, env, clock, { create: false });
  if (!records) return { sessions: [] };
  try {
    const rows = await records.sessions.list({ all: all && records.kind === "postgres", limit: Math.min(MAX_LISTED, offset + SESSION_PAGE + 1) });
    const page = rows.slice(offset, offset + SESSION_PAGE);
    const more = rows.length > offset + SESSION_PAGE;
    return {
      sessions: page.map((row) => ({
        sessionId: row.id,
        cwd: row.workspace,
        title: row.status === "new" ? null : shownTask(row.task),
        updatedAt: new Date(row.updatedAt).toISOString(),
      })),
      ...(more ? { nextCursor: cursorFor(offset + SESSION_PAGE) } : {}),
    };
  } finally {
    await records.close();
  }
}
