/**
 * One JSON request to a Chroma server over node:http(s), with the endpoint's auth headers. The `chromadb` client
 * and the first `fetch` (which compiles undici) cost a fresh process several times what `memory list` itself does.
 */
import http from "node:http";
import type { ChromaEndpoint } from "./types.js";
import { ChromaUnavailableError } from "./types.js";

const REQUEST_TIMEOUT_MS = 30_000;

export interface ChromaReply {
  status: number;
  body: unknown;
}

/** Where a request goes and what it carries: a ChromaEndpoint, or the parts of one known before it is built. */
export type ChromaTarget = Pick<ChromaEndpoint, "url" | "authHeaders">;

export function chromaRequest(
  endpoint: ChromaTarget,
  method: "GET" | "POST",
  route: string,
  payload?: unknown,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<ChromaReply> {
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  const headers: http.OutgoingHttpHeaders = {
    ...endpoint.authHeaders(),
    ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
  };
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // Not JSON (a proxy's error page): keep the text for the message.
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    };
    const target = new URL(route, endpoint.url);
    const send = (mod: typeof http): void => {
      const req = mod.request(target, { method, headers, timeout: timeoutMs }, onResponse);
      req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on("error", (error: NodeJS.ErrnoException) =>
        reject(new ChromaUnavailableError(`Chroma at ${endpoint.url} is unreachable (${error.code ? `${error.code}: ${error.message}` : error.message})`)),
      );
      req.end(body);
    };
    if (target.protocol === "https:") import("node:https").then((https) => send(https.default as unknown as typeof http), reject);
    else send(http);
  });
}

/** The server's own message in a reply (Chroma answers `{ error, message }`), or its text, shortened. */
export function replyMessage(reply: ChromaReply): string {
  const message = typeof reply.body === "object" && reply.body !== null && "message" in reply.body ? String(reply.body.message) : String(reply.body);
  return message.slice(0, 200);
}
