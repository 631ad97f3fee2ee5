import type { ThreadSaver } from "@langchain/langgraph-api/experimental/embed";
import { HTTPException } from "hono/http-exception";
import type { SessionRow, SessionRowStatus } from "../../sessions/session-store.js";
import type { SessionRows } from "../../sessions/session-records.js";
import type { ThreadNames } from "./session-saver.js";
import { threadIdOf } from "./thread-ids.js";

/** The graph every session runs, as the API names it (its assistant). */
export const GRAPH_ID = "mini-cursor";

type ThreadStatus = "idle" | "busy" | "interrupted" | "error";

const STATUS: Record<SessionRowStatus, ThreadStatus> = {
  new: "idle",
  running: "busy",
  interrupted: "idle",
  awaiting_approval: "interrupted",
  awaiting_input: "interrupted",
  done: "idle",
  failed: "error",
  limit_reached: "idle",
};

/** A session as the API's thread: its id, the session's own id, task, status, turns, cost and tokens in its metadata. */
function threadOf(row: SessionRow): { thread_id: string; metadata: Record<string, unknown>; status: ThreadStatus; created_at: string; updated_at: string } {
  return {
    thread_id: threadIdOf(row.id),
    // graph_id: the embed server finds a thread's graph by it (without it, a thread's state reads as empty).
    metadata: {
      graph_id: GRAPH_ID,
      session_id: row.id,
      title: row.task,
      workspace: row.worktree ?? row.workspace,
      session_status: row.status,
      turns: row.turns,
      model: row.model,
      cost_usd: row.costUsd,
      input_tokens: row.inputTokens,
      output_tokens: row.outputTokens,
    },
    status: STATUS[row.status],
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/**
 * The workspace's sessions as the API's threads (src/sessions: the rows `mini-cursor sessions` lists), whichever face
 * started them; a thread made over the API is a new session. They are deleted with `mini-cursor sessions delete`.
 */
export class SessionThreads implements ThreadSaver, ThreadNames {
  private readonly sessions = new Map<string, string>();

  /** `create`: a new session without a task yet (its first run's message becomes the task); its id. */
  constructor(
    private readonly rows: SessionRows,
    private readonly create: () => Promise<string>,
  ) {}

  sessionOf(threadId: string): string | undefined {
    return this.sessions.get(threadId);
  }

  threadOf(sessionId: string): string {
    const id = threadIdOf(sessionId);
    this.sessions.set(id, sessionId);
    return id;
  }

  /** Every session's row, newest first; each one's thread id is remembered for the checkpointer. */
  private async all(): Promise<SessionRow[]> {
    const rows = await this.rows.list({ all: true });
    for (const row of rows) this.threadOf(row.id);
    return rows;
  }

  /** The session a thread id names (404 when none does). */
  async rowOf(threadId: string): Promise<SessionRow> {
    const known = this.sessions.get(threadId);
    const row = known ? await this.rows.get(known) : (await this.all()).find((r) => threadIdOf(r.id) === threadId);
    if (!row) throw new HTTPException(404, { message: `no session has thread id ${threadId}` });
    return row;
  }

  async get(threadId: string) {
    return threadOf(await this.rowOf(threadId));
  }

  /**
   * `put` (POST /threads): a new session, as an editor's `session/new` makes one; its thread id is derived from the
   * session's id, so a thread id the client proposed is not used. `patch`: refused (a session's title is its task).
   */
  async set(_threadId: string, o: { kind: "put" | "patch" }) {
    if (o.kind === "patch") throw new HTTPException(405, { message: "a session's metadata is its own: its title is its task, its status its runs'" });
    const row = await this.rows.get(await this.create());
    if (!row) throw new HTTPException(500, { message: "the new session's row is gone" });
    this.threadOf(row.id);
    return threadOf(row);
  }

  delete(): Promise<never> {
    return Promise.reject(new HTTPException(405, { message: "delete a session with: mini-cursor sessions delete ID" }));
  }

  async *search(o: { metadata?: Record<string, unknown>; limit: number; offset: number; sortBy: "created_at" | "updated_at"; sortOrder: "asc" | "desc" }) {
    const wanted = Object.entries(o.metadata ?? {});
    const threads = (await this.all())
      .map(threadOf)
      .filter((t) => wanted.every(([key, value]) => t.metadata[key] === value))
      .sort((a, b) => (o.sortOrder === "asc" ? 1 : -1) * a[o.sortBy].localeCompare(b[o.sortBy]));
    for (const thread of threads.slice(o.offset, o.offset + o.limit)) yield { thread, total: threads.length };
  }
}
