import type { RunnableConfig } from "@langchain/core/runnables";
import { errorMessage } from "../platform/error-info.js";
import { logger } from "../platform/logger.js";

/** Timers for idle expiry: the process's, or a test's. */
export interface Timers {
  after(ms: number, run: () => void): { cancel(): void };
}

export const systemTimers: Timers = {
  after(ms, run) {
    const timer = setTimeout(run, ms);
    // An idle service never keeps the process alive.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** The services a scope keeps per key: the MCP servers and the language service per workspace, background processes per session or thread. */
export type ServiceKind = "mcp" | "diagnostics" | "processes";

/** Services of one kind, kept per key (a session, a workspace, a thread). */
export interface Kept<T> {
  /** The key's service, made on first use; each use starts its idle time again. */
  get(key: string): T;
  /** Runs work on the key's service, which is not closed while the work runs; its idle time starts when the work ends. */
  hold<R>(key: string, work: (service: T) => Promise<R>): Promise<R>;
  /** Closes every service kept now. */
  close(): Promise<void>;
}

export interface KeptOptions<T> {
  make: (key: string) => T;
  close: (service: T) => unknown;
}

/**
 * How long a face's services live (issue 39): the strategy createSessionServices (src/host/services.ts) is given.
 * A session (the CLI, ACP) keeps its services until it ends; a server (Studio, the Agent Server) runs many threads of
 * many workspaces and has no session end, so it keeps them per workspace or thread until they are idle.
 */
export interface ServiceScope {
  readonly kind: "session" | "server";
  /** The workspace whose config files set what all runs share (web): the session's; a server's runs share the user's. */
  readonly workspace: string | undefined;
  /** The key of a run's background processes: the session's, or the run's thread (none outside a thread). */
  processKey(config: RunnableConfig | undefined): string | undefined;
  keep<T>(kind: ServiceKind, o: KeptOptions<T>): Kept<T>;
}

/** The CLI's and ACP's scope: every service is the session's, closed when the session's services are. */
export function sessionScope(session: { sessionId: string; workspace: string }): ServiceScope {
  return {
    kind: "session",
    workspace: session.workspace,
    processKey: () => session.sessionId,
    keep: (_kind, o) => keptPerKey(o, undefined, systemTimers),
  };
}

export interface ServerScopeOptions {
  /** How long an unused service of a kind is kept; a kind not named is kept until the server stops. */
  idleMs: Partial<Record<ServiceKind, number>>;
  timers?: Timers;
}

/** Studio's and the Agent Server's scope: services per workspace (processes per thread), closed once idle. */
export function serverScope(o: ServerScopeOptions): ServiceScope {
  return {
    kind: "server",
    workspace: undefined,
    processKey: (config) => {
      const id: unknown = config?.configurable?.thread_id;
      return typeof id === "string" && id !== "" ? id : undefined;
    },
    keep: (kind, kept) => keptPerKey(kept, o.idleMs[kind], o.timers ?? systemTimers),
  };
}

interface Entry<T> {
  service: T;
  busy: number;
  timer: { cancel(): void } | undefined;
}

function keptPerKey<T>(o: KeptOptions<T>, idleMs: number | undefined, timers: Timers): Kept<T> {
  const entries = new Map<string, Entry<T>>();
  const closeOne = (service: T) =>
    Promise.resolve()
      .then(() => o.close(service))
      .catch((error: unknown) => logger.warn(`a service did not close cleanly: ${errorMessage(error)}`));
  const used = (key: string): Entry<T> => {
    let entry = entries.get(key);
    if (!entry) {
      entry = { service: o.make(key), busy: 0, timer: undefined };
      entries.set(key, entry);
    }
    entry.timer?.cancel();
    entry.timer = undefined;
    return entry;
  };
  const idleFrom = (key: string, entry: Entry<T>) => {
    if (idleMs === undefined || entry.busy > 0) return;
    entry.timer = timers.after(idleMs, () => {
      if (entries.get(key) !== entry || entry.busy > 0) return;
      entries.delete(key);
      void closeOne(entry.service);
    });
  };
  return {
    get(key) {
      const entry = used(key);
      idleFrom(key, entry);
      return entry.service;
    },
    async hold(key, work) {
      const entry = used(key);
      entry.busy += 1;
      try {
        return await work(entry.service);
      } finally {
        entry.busy -= 1;
        idleFrom(key, entry);
      }
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      for (const entry of all) entry.timer?.cancel();
      await Promise.all(all.map((entry) => closeOne(entry.service)));
    },
  };
}
