import { timingSafeEqual } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createEmbedServer } from "@langchain/langgraph-api/experimental/embed";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { MiniCursorGraph } from "../../graph/build-graph.js";
import type { Clock } from "../../platform/clock.js";
import { runRoutes } from "./api-runs.js";
import { GRAPH_ID, type SessionThreads } from "./session-threads.js";
import { assistantIdOf } from "./thread-ids.js";

export interface ApiOptions {
  /** The session graph, compiled with the session database's checkpointer as the API sees it (session-saver.ts). */
  graph: MiniCursorGraph;
  checkpointer: BaseCheckpointSaver;
  threads: SessionThreads;
  /** Every request must carry it (`Authorization: Bearer` or `x-api-key`, as the LangGraph SDK sends it). */
  token?: string;
  version: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

const NOT_HERE =
  "mini-cursor serve runs a session's turns with POST /threads/{id}/runs/stream or /runs/wait (a new session: POST /threads first); its state changes by running it";

function sameToken(given: string | undefined, token: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function given(c: Context): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  return bearer ?? c.req.header("x-api-key");
}

/**
 * The LangGraph Agent Server API over one workspace's sessions: langgraph-api's embed server for threads, state and
 * history (it takes our checkpointer and thread store), and here what it lacks: CORS for Studio in a browser, the
 * token check, `/ok` and `/info`, and the one assistant (the mini-cursor graph) Studio and the SDK look up.
 */
export function sessionApi(o: ApiOptions): Hono {
  const app = new Hono();
  app.use(cors({ origin: "*", exposeHeaders: ["content-location", "x-pagination-total"] }));
  const { token } = o;
  if (token) {
    app.use(async (c, next) => {
      if (c.req.method === "OPTIONS" || sameToken(given(c), token)) return next();
      return c.json({ error: "unauthorized: send the server's token (MINI_CURSOR_SERVE_TOKEN) as a Bearer token or x-api-key" }, 401);
    });
  }
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ error: error.message }, error.status);
    return c.json({ error: error.message }, 500);
  });

  const assistantId = assistantIdOf(GRAPH_ID);
  const created = new Date(0).toISOString();
  const assistant = {
    assistant_id: assistantId,
    graph_id: GRAPH_ID,
    name: GRAPH_ID,
    description: "mini-cursor: a planner routing steps to researcher, coder and reviewer",
    config: {},
    context: {},
    metadata: { created_by: "system" },
    version: 1,
    created_at: created,
    updated_at: created,
  };
  const known = (id: string) => id === GRAPH_ID || id === assistantId;
  const notFound = (id: string) => new HTTPException(404, { message: `no assistant ${id}: this server has one, ${GRAPH_ID} (${assistantId})` });

  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/info", (c) => c.json({ version: o.version, context: "js", flags: { assistants: true, crons: false, langsmith: false } }));
  app.post("/assistants/search", async (c) => {
    const body: unknown = await c.req.json().catch(() => ({}));
    const graphId = typeof body === "object" && body !== null && "graph_id" in body ? body.graph_id : undefined;
    const list = graphId === undefined || graphId === GRAPH_ID ? [assistant] : [];
    c.header("X-Pagination-Total", String(list.length));
    return c.json(list);
  });
  app.post("/assistants/count", (c) => c.json(1));
  app.get("/assistants/:id", (c) => {
    if (!known(c.req.param("id"))) throw notFound(c.req.param("id"));
    return c.json(assistant);
  });
  app.post("/assistants/:id/versions", (c) => {
    if (!known(c.req.param("id"))) throw notFound(c.req.param("id"));
    return c.json([assistant]);
  });
  app.get("/assistants/:id/graph", async (c) => {
    if (!known(c.req.param("id"))) throw notFound(c.req.param("id"));
    const xray = c.req.query("xray");
    const depth = xray === "true" ? true : xray && /^\d+$/.test(xray) ? Number(xray) : undefined;
    return c.json((await o.graph.getGraphAsync({ ...(depth !== undefined ? { xray: depth } : {}) })).toJSON());
  });

  // A thread's runs are turns of its session (api-runs.ts), streamed or waited for.
  runRoutes(app, { graph: o.graph, threads: o.threads, workspace: o.workspace, env: o.env, clock: o.clock });
  // What the embed server would run or change by itself, outside the session host: refused.
  for (const route of ["/threads/:id/runs", "/runs", "/runs/*", "/threads/:id/state", "/threads/:id/commands", "/threads/:id/runs/:run/*"]) {
    app.post(route, (c) => c.json({ error: NOT_HERE }, 405));
  }
  app.patch("/threads/:id", (c) => c.json({ error: NOT_HERE }, 405));
  // Runs are not kept as such: a session's runs are its turns (`mini-cursor sessions`, its history).
  app.get("/threads/:id/runs", (c) => c.json([]));

  const embed = createEmbedServer({ graph: { [GRAPH_ID]: o.graph, [assistantId]: o.graph }, threads: o.threads, checkpointer: o.checkpointer });
  app.route("/", embed);
  return app;
}
