import diagnostics from "node:diagnostics_channel";

/** Published by Node's fetch (undici) once a request's headers are on the wire. */
const SENT = "undici:client:sendHeaders";

/**
 * Resolves once this process has sent an HTTP request through fetch (the session's first model request: the model
 * clients use fetch), or after `fallbackMs` when none goes out (a resumed session that first asks a person, a model
 * client with a fetch of its own). Work that only runs on this thread, such as loading Chroma's client, then starts
 * while the request is on its way instead of holding it back.
 */
export function afterFirstRequest(fallbackMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      diagnostics.unsubscribe(SENT, done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, fallbackMs);
    timer.unref();
    diagnostics.subscribe(SENT, done);
  });
}
