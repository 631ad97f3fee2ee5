import { closeSession, finishSession, stopOnError } from "./session-finish.js";
import { runLoop } from "./session-loop.js";
import type { SessionRunOptions } from "./session-options.js";
import { prepareSession } from "./session-prepare.js";

export type { SessionRunOptions } from "./session-options.js";

/**
 * Runs (or continues) one session under its lock: prepare (lock, services, graph: src/host/session-prepare.ts), loop
 * (invoke, ask, resume: session-loop.ts), finish (report, or one line on an error: session-finish.ts). Ctrl-C or
 * SIGTERM aborts the graph between writes, kills running commands and leaves the last checkpoint for `resume`; at an
 * approval prompt they end the session at once, the approval left pending. The lock is released whatever happens. A
 * session database that goes away (PostgreSQL) stops the run the same way, resumable from its last checkpoint, with exit 1.
 */
export async function runSession(o: SessionRunOptions): Promise<number> {
  const prepared = await prepareSession(o);
  try {
    const end = await runLoop(prepared, o);
    return end.kind === "paused" ? end.code : await finishSession(prepared, o);
  } catch (error) {
    return await stopOnError(prepared, o, error);
  } finally {
    await closeSession(prepared, o);
  }
}
