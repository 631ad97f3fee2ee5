import { errorMessage } from "../platform/error-info.js";

/**
 * What went wrong with a model endpoint, as data, and the one line a person reads about it: what the endpoint did
 * and what to do. Raw client errors ("terminated", "Request was aborted.", LangChain's multi-line 429 text) never
 * reach the user.
 */

/** A 200 answer that is not a usable chat completion (`choices: []`, a choice without a message). */
export class MalformedReplyError extends Error {
  override name = "MalformedReplyError";
}

export type ModelFaultKind =
  | "rate_limit"
  | "quota"
  | "malformed_reply"
  | "auth"
  | "not_found"
  | "rejected"
  | "server_error"
  | "timeout"
  | "connection_refused"
  | "connection_broken"
  | "aborted"
  | "other";

export interface ModelFault {
  kind: ModelFaultKind;
  /** The HTTP status, when the endpoint answered with one. */
  status: number | null;
  /** The endpoint's own words (or the client's), one line, clipped; "" when there are none. */
  said: string;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function statusOf(error: unknown): number | null {
  const status = field(error, "status") ?? field(field(error, "response"), "status");
  return typeof status === "number" ? status : null;
}

/** One line of at most `max` characters. */
export function oneLine(value: string, max = 200): string {
  const line = value.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The provider's message without LangChain's troubleshooting link or the SDK's status prefix. */
function saidBy(error: unknown): string {
  const provider = text(field(field(error, "error"), "message"));
  if (provider) return oneLine(provider);
  const message = text(field(error, "message")) ?? String(error);
  const withoutLink = message.split(/\n\s*Troubleshooting URL:/)[0] ?? message;
  return oneLine(withoutLink.replace(/^\d{3}\s+/, ""));
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = text(field(current, "code"));
    if (code) codes.push(code);
    current = field(current, "cause");
  }
  return codes;
}

const BROKEN = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_BODY_TIMEOUT"]);
const REFUSED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The fault behind a model call's error, read from the HTTP status, the error's name and its causes. */
export function modelFaultOf(error: unknown): ModelFault {
  if (error instanceof MalformedReplyError) return { kind: "malformed_reply", status: null, said: oneLine(error.message) };
  const status = statusOf(error);
  const said = saidBy(error);
  const name = text(field(error, "name")) ?? "";
  const code = text(field(error, "code")) ?? text(field(field(error, "error"), "code")) ?? "";
  if (status === 429) {
    const quota = code === "insufficient_quota" || name === "RateLimitQuotaExhaustedError" || /quota|billing|credit/i.test(said);
    return { kind: quota ? "quota" : "rate_limit", status, said };
  }
  if (status === 401 || status === 403) return { kind: "auth", status, said };
  if (status === 404) return { kind: "not_found", status, said };
  if (status !== null && status >= 500) return { kind: "server_error", status, said };
  if (status !== null && status >= 400) return { kind: "rejected", status, said };
  if (name === "TimeoutError" || /timed out|timeout|did not answer within/i.test(said)) return { kind: "timeout", status, said };
  if (name === "AbortError" || /aborted/i.test(said)) return { kind: "aborted", status, said };
  const codes = causeCodes(error);
  if (said === "terminated" || codes.some((c) => BROKEN.has(c))) return { kind: "connection_broken", status, said };
  if (codes.some((c) => REFUSED.has(c)) || /connection error|fetch failed|ECONNREFUSED/i.test(said)) {
    return { kind: "connection_refused", status, said };
  }
  return { kind: "other", status, said };
}

/** A provider's "too many requests" (not an exhausted quota): worth waiting for. */
export function isRateLimit(error: unknown): boolean {
  return modelFaultOf(error).kind === "rate_limit";
}

export interface FaultContext {
  /** The endpoint as the user configured it (a base URL, or "OpenAI"). */
  endpoint: string;
  model: string;
  /** How many times the call was tried. */
  attempts: number;
  /** The per-attempt timeout, for a timeout's line. */
  timeoutMs: number;
}

function quoted(said: string): string {
  return said ? ` ("${said}")` : "";
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}

function times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}

/** One line: what the endpoint did, and what to do about it. */
export function describeModelFault(fault: ModelFault, c: FaultContext): string {
  const ep = `the model endpoint ${c.endpoint}`;
  switch (fault.kind) {
    case "rate_limit":
      return `${ep} answered 429 Too Many Requests ${times(c.attempts)} in a row${quoted(fault.said)}: wait a minute, or use a model or account with a higher rate limit.`;
    case "quota":
      return `${ep} answered 429: the account's quota is used up${quoted(fault.said)}: add credit or use another API key, then resume.`;
    case "malformed_reply":
      return `${ep} sent ${c.attempts === 1 ? "a reply" : `${c.attempts} replies in a row`} that was not a chat completion (${fault.said}): check that it serves OpenAI-compatible chat completions for model "${c.model}", or try another --model.`;
    case "auth":
      return `${ep} refused the API key (${fault.status ?? "401"})${quoted(fault.said)}: set OPENAI_API_KEY to a key this endpoint accepts.`;
    case "not_found":
      return `${ep} answered 404 for model "${c.model}"${quoted(fault.said)}: check --model / MINI_CURSOR_MODEL and that OPENAI_BASE_URL ends in /v1.`;
    case "rejected":
      return `${ep} rejected the request (${fault.status ?? 400})${quoted(fault.said)}: the model "${c.model}" may not support tool calling or this request; try another --model.`;
    case "server_error":
      return `${ep} failed with HTTP ${fault.status ?? 500} ${times(c.attempts)}${quoted(fault.said)}: the server is in trouble; try again later.`;
    case "timeout":
      return `${ep} did not answer within ${seconds(c.timeoutMs)} s (${times(c.attempts)}): the model is slow or overloaded; try later or raise MINI_CURSOR_MODEL_TIMEOUT_MS.`;
    case "connection_refused":
      return `could not connect to ${ep} (${times(c.attempts)})${quoted(fault.said)}: check that the server is running and OPENAI_BASE_URL is right.`;
    case "connection_broken":
      return `${ep} closed the connection in the middle of a reply (${times(c.attempts)}): the server or a proxy dropped it; try again later.`;
    case "aborted":
      return `the call to ${ep} was cut off at its deadline (retries included): the model is slow or overloaded; try later or raise MINI_CURSOR_MODEL_TIMEOUT_MS.`;
    case "other":
      return `the call to ${ep} failed${quoted(fault.said)}.`;
  }
}

/** A model call that failed for good (after its retries), with the one line that says why. */
export class ModelCallError extends Error {
  override name = "ModelCallError";
  constructor(
    readonly fault: ModelFault,
    readonly attempts: number,
    line: string,
    options?: { cause?: unknown },
  ) {
    super(line, options);
  }
}

/** The ModelCallError behind an error: LangChain's agent middleware rethrows errors wrapped, with the original as cause. */
export function modelCallErrorIn(error: unknown): ModelCallError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof ModelCallError) return current;
    current = field(current, "cause");
  }
  return undefined;
}

/** The endpoint refused the request itself (HTTP 400 or 422), e.g. a parameter it does not support. */
export function isRejectedRequest(error: unknown): boolean {
  const failed = modelCallErrorIn(error);
  if (failed) return failed.fault.kind === "rejected";
  const status = statusOf(error);
  return status === 400 || status === 422;
}

/**
 * The one line for whatever stopped a session: a model call that failed for good says what the endpoint did; another
 * error that looks like a model fault is described the same way; anything else is its message, on one line.
 */
export function errorLine(error: unknown, c: FaultContext): string {
  const failed = modelCallErrorIn(error);
  if (failed) return failed.message;
  const fault = modelFaultOf(error);
  if (fault.kind !== "other") return describeModelFault(fault, c);
  const message = errorMessage(error);
  return `an unexpected error: ${oneLine(message, 300)}`;
}

/** What the endpoint itself said in its error answer (one line; "" when it said nothing). */
export function endpointSaid(error: unknown): string {
  return modelCallErrorIn(error)?.fault.said ?? modelFaultOf(error).said;
}
