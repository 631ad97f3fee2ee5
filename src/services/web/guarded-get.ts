import type { IncomingMessage } from "node:http";
import { checkTarget, pinnedLookup, systemResolver, type HostPolicy, type Resolver } from "./ssrf-guard.js";
import { sendRequest, WebRequestError, type RawResponse } from "./http-request.js";
import { errorMessage } from "../../platform/error-info.js";

/**
 * A GET through the SSRF guard: every hop (the URL and each redirect) is checked and connected to its checked
 * addresses only; at most `maxRedirects` redirects; one deadline for everything (DNS, connecting, redirects, body).
 */

export const MAX_REDIRECTS = 5;

export interface GuardedGetOptions {
  policy: HostPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  resolve?: Resolver;
  /** The caller's cancellation (the run's signal). */
  signal?: AbortSignal;
  readBody?: (response: IncomingMessage) => boolean;
}

export type GuardedGetResult = ({ ok: true; url: string; redirects: string[] } & RawResponse) | { ok: false; reason: string; redirects: string[] };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const USER_AGENT = "Mozilla/5.0 (compatible; mini-cursor fetch_url)";

/** Settles with the promise, or rejects once the signal aborts (a slow DNS answer must not outlive the deadline). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new WebRequestError("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export async function guardedGet(start: string, o: GuardedGetOptions): Promise<GuardedGetResult> {
  const maxRedirects = o.maxRedirects ?? MAX_REDIRECTS;
  const resolve = o.resolve ?? systemResolver;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, o.timeoutMs);
  const onCallerAbort = () => controller.abort();
  o.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const redirects: string[] = [];
  try {
    let current = start;
    for (;;) {
      const verdict = await untilAborted(checkTarget(current, o.policy, resolve), controller.signal);
      if (!verdict.ok) {
        const reason = redirects.length > 0 ? `the redirect to ${current} was refused: ${verdict.reason}` : verdict.reason;
        return { ok: false, reason, redirects };
      }
      const response = await sendRequest(verdict.url, {
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
        lookup: pinnedLookup(verdict.addresses),
        maxBytes: o.maxBytes,
        signal: controller.signal,
        // A redirect's body is never read.
        readBody: (r) => !(REDIRECTS.has(r.statusCode ?? 0) && r.headers.location) && (o.readBody?.(r) ?? true),
      });
      const location = response.headers.location;
      if (REDIRECTS.has(response.status) && location) {
        if (redirects.length >= maxRedirects)
          return { ok: false, reason: `stopped after ${maxRedirects} redirects (the last one pointed to ${location.slice(0, 200)})`, redirects };
        let next: string;
        try {
          next = new URL(location, verdict.url).toString();
        } catch {
          return { ok: false, reason: `the server redirected to an invalid URL`, redirects };
        }
        redirects.push(next);
        current = next;
        continue;
      }
      return { ok: true, url: verdict.url.toString(), redirects, ...response };
    }
  } catch (error) {
    if (timedOut) return { ok: false, reason: `timed out after ${o.timeoutMs / 1000} s`, redirects };
    if (o.signal?.aborted) return { ok: false, reason: "cancelled", redirects };
    return { ok: false, reason: errorMessage(error), redirects };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onCallerAbort);
  }
}
