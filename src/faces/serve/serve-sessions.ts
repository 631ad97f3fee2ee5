import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { compileGraph } from "../../graph/build-graph.js";
import { memoryOff } from "../../memory/types.js";
import type { ModelProvider } from "../../models/chat-model.js";
import type { Clock } from "../../platform/clock.js";
import { resolveSessionConfig } from "../../host/config-setup.js";
import { openConversation } from "../../host/conversation-settings.js";
import { openRunStore } from "../../sessions/open-run-store.js";
import { newSessionId } from "../../sessions/session-id.js";
import { sessionApi } from "./api.js";
import { SessionSaver } from "./session-saver.js";
import { SessionThreads } from "./session-threads.js";

export interface ServeOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  host: string;
  port: number;
  token?: string;
  version: string;
}

export interface Serving {
  url: string;
  close(): Promise<void>;
}

export class ServeError extends Error {}

/** This graph is only read (its shape, and state from its checkpoints); runs build the session's own (api-runs.ts). */
const NO_MODELS: ModelProvider = {
  forRole() {
    throw new ServeError("the graph serve reads state with runs nothing");
  },
  describe: () => "none",
};

/** A loopback address: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Serves the workspace's sessions (its SQLite file, or PostgreSQL when MINI_CURSOR_DATABASE_URL says so) over the
 * LangGraph Agent Server API until closed.
 */
export async function serveSessions(o: ServeOptions): Promise<Serving> {
  const store = await openRunStore(o.workspace, o.env, o.clock, { create: false });
  if (!store) throw new ServeError(`${o.workspace} has no sessions yet (start one with mini-cursor run)`);
  const threads = new SessionThreads(store.sessions, async () => {
    // As an editor's session/new: the settings configured for this workspace, kept with the session from the start.
    const { config, safety } = await resolveSessionConfig({}, o.workspace, o.env);
    const sessionId = newSessionId(o.clock);
    const settings = { approval: safety.approval, allowNetwork: safety.allowNetwork, approveFileChanges: safety.approveFileChanges };
    await openConversation({ sessionId, workspace: o.workspace, env: o.env, clock: o.clock, settings, config, safety });
    return sessionId;
  });
  const checkpointer = new SessionSaver(store.checkpointer, threads);
  const graph = compileGraph({ models: NO_MODELS, events: { emit: () => undefined }, memory: memoryOff }, checkpointer);
  const app = sessionApi({
    graph,
    checkpointer,
    threads,
    version: o.version,
    workspace: o.workspace,
    env: o.env,
    clock: o.clock,
    ...(o.token ? { token: o.token } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: o.host, port: o.port }, () => resolve(s));
    s.once("error", reject);
  }).catch(async (error: unknown) => {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new ServeError(code === "EADDRINUSE" ? `port ${o.port} on ${o.host} is in use` : `cannot listen on ${o.host}:${o.port} (${code ?? String(error)})`);
  });
  const { port } = server.address() as AddressInfo;
  const shown = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${shown}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open streams (Studio keeps one) would hold the close until their clients left.
      if ("closeAllConnections" in server) server.closeAllConnections();
      await closed;
      await store.close();
    },
  };
}
