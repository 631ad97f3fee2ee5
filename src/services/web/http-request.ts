import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { errorMessage } from "../../platform/error-info.js";

/**
 * One HTTP(S) request with node:http, no redirects followed: the body is decompressed and read up to `maxBytes`
 * (counted after decompression, so a small compressed bomb cannot blow up memory); past it the connection is dropped.
 * Every failure is a WebRequestError with one clear line (never a stack trace, never a header value).
 */

export class WebRequestError extends Error {}

export interface RequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Where the connection goes (the SSRF guard's checked addresses); the system resolver when absent. */
  lookup?: LookupFunction;
  maxBytes: number;
  /** Aborts connecting and reading (the caller's total deadline). */
  signal: AbortSignal;
  /** Read the body? false: only the status and headers are wanted (e.g. a binary file that is only described). */
  readBody?: (response: IncomingMessage) => boolean;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body went on past maxBytes: only the first maxBytes were kept. */
  truncated: boolean;
  /** The body was not read (readBody said no). */
  skipped: boolean;
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(zlib.createGunzip());
  if (encoding === "deflate") return response.pipe(zlib.createInflate());
  if (encoding === "br") return response.pipe(zlib.createBrotliDecompress());
  return response;
}

/** A network error as one line: its code (ECONNREFUSED, CERT_HAS_EXPIRED, ...) or a short message. */
export function describeNetworkError(error: unknown): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ECONNRESET") return "the connection was reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host could not be resolved";
  if (code === "Z_DATA_ERROR" || code === "ERR__ERROR_FORMAT_PADDING_1") return "the compressed body is corrupt";
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")) return `TLS error (${code})`;
  if (code) return `network error (${code})`;
  const message = errorMessage(error);
  return message.split("\n", 1)[0]?.slice(0, 200) ?? "network error";
}

export function sendRequest(url: URL, o: RequestOptions): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(error instanceof WebRequestError ? error : new WebRequestError(describeNetworkError(error)));
    };
    const client = url.protocol === "https:" ? https : http;
    // agent: false: a fresh connection to the checked address, never a pooled socket from an earlier lookup.
    const request = client.request(url, {
      method: o.method ?? "GET",
      headers: o.headers,
      agent: false,
      ...(o.lookup ? { lookup: o.lookup } : {}),
    });
    const onAbort = () => fail(new WebRequestError("aborted"));
    if (o.signal.aborted) {
      onAbort();
      return;
    }
    o.signal.addEventListener("abort", onAbort, { once: true });
    const done = (value: RawResponse) => {
      o.signal.removeEventListener("abort", onAbort);
      if (settled) return;
      settled = true;
      resolve(value);
    };
    request.on("error", fail);
    request.on("response", (response) => {
      const head = { status: response.statusCode ?? 0, statusText: response.statusMessage ?? "", headers: response.headers };
      if (o.readBody && !o.readBody(response)) {
        response.destroy();
        done({ ...head, body: Buffer.alloc(0), truncated: false, skipped: true });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const body = decoded(response);
      body.on("data", (chunk: Buffer) => {
        if (settled) return;
        const room = o.maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          done({ ...head, body: Buffer.concat(chunks), truncated: true, skipped: false });
          response.destroy();
          body.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      body.on("end", () => done({ ...head, body: Buffer.concat(chunks), truncated: false, skipped: false }));
      body.on("error", fail);
      body.on("close", () => fail(new WebRequestError("the connection closed before the body ended")));
      response.on("error", fail);
    });
    request.end(o.body);
  });
}
