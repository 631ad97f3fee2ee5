/**
 * Liveness checks against a Chroma server's `GET /api/v2/heartbeat`.
 */

export type HeartbeatResult = { ok: true } | { ok: false; reason: string };

/** Asks the server at `url` (no trailing slash needed) for a heartbeat; never throws. */
export async function probeHeartbeat(url: string, timeoutMs: number): Promise<HeartbeatResult> {
  const target = `${url.replace(/\/+$/, "")}/api/v2/heartbeat`;
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(timeoutMs) });
    // Drain the body so the socket is released even when we only look at the status.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) return { ok: false, reason: `heartbeat answered HTTP ${response.status}` };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeFetchError(error, timeoutMs) };
  }
}

/** True when a Chroma server at `url` answers its heartbeat within `timeoutMs`. */
export async function chromaHeartbeat(url: string, timeoutMs: number): Promise<boolean> {
  return (await probeHeartbeat(url, timeoutMs)).ok;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs} ms`;
  }
  // undici hides the socket error (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code ? `${code}: ${cause.message}` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
