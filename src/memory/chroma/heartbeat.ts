/**
 * Liveness checks against a Chroma server's `GET /api/v2/heartbeat`, over node:http: the first `fetch` in a
 * process compiles undici, which costs short commands such as `memory list` more than the rest of their work.
 */
import http from "node:http";

/** `status` is the HTTP status when the server answered with an error (401/403: it wants a token or refused ours). */
export type HeartbeatResult = { ok: true } | { ok: false; reason: string; status?: number };

/** Asks the server at `url` (no trailing slash needed) for a heartbeat, with `headers` (a token); never throws. */
export async function probeHeartbeat(url: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<HeartbeatResult> {
  let target: URL;
  try {
    target = new URL(`${url.replace(/\/+$/, "")}/api/v2/heartbeat`);
  } catch {
    return { ok: false, reason: `"${url}" is not a valid URL` };
  }
  const client: typeof http = target.protocol === "https:" ? ((await import("node:https")).default as unknown as typeof http) : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: HeartbeatResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.get(target, { headers }, (res) => {
      // Drain the body so the socket is released even when we only look at the status.
      res.resume();
      res.on("end", () =>
        settle(
          ok(res.statusCode)
            ? { ok: true }
            : { ok: false, reason: `heartbeat answered HTTP ${res.statusCode}`, ...(res.statusCode ? { status: res.statusCode } : {}) },
        ),
      );
      res.on("error", (error) => settle({ ok: false, reason: error.message }));
    });
    // One deadline for connect and answer alike, as AbortSignal.timeout gave before.
    const timer = setTimeout(() => {
      settle({ ok: false, reason: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => settle({ ok: false, reason: error.code ? `${error.code}: ${error.message}` : error.message }));
  });
}

const ok = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** True when a Chroma server at `url` answers its heartbeat within `timeoutMs`. */
export async function chromaHeartbeat(url: string, timeoutMs: number): Promise<boolean> {
  return (await probeHeartbeat(url, timeoutMs)).ok;
}
