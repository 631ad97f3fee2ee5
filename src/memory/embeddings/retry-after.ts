/**
 * How long an HTTP answer asks the client to wait before trying again, in milliseconds: `retry-after-ms` (OpenAI's,
 * finer than the standard header), else `Retry-After` as seconds or as an HTTP date. Undefined when neither is
 * present or readable; never negative.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const fine = headers.get("retry-after-ms")?.trim();
  if (fine && /^\d+(\.\d+)?$/.test(fine)) return Math.ceil(Number(fine));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date has a weekday and a month by name; Date.parse would also read "-5" as a year.
  const at = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Statuses that say "not now" rather than "not this": rate limits, timeouts, an overloaded or restarting server. */
const TRANSIENT_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504, 529]);

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/**
 * Network failures that a later attempt may not meet: a dropped or reset connection, a DNS hiccup. A refused
 * connection is not among them: nothing listens there (a local server not started), and waiting will not start it.
 */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export function isTransientNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError") return true;
  const cause: unknown = error.cause;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined;
  return typeof code === "string" && TRANSIENT_CODES.has(code);
}
