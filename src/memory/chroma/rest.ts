/**
 * Just enough of Chroma's v2 REST API to read a collection, over node:http. The `chromadb` client and the first
 * `fetch` (which compiles undici) cost a fresh process several times what `memory list` itself does.
 */
import http from "node:http";
import type { Metadata, Where } from "chromadb";
import type { ChromaEndpoint } from "./types.js";
import { ChromaUnavailableError } from "./types.js";

const COLLECTIONS = "/api/v2/tenants/default_tenant/databases/default_database/collections";
const REQUEST_TIMEOUT_MS = 30_000;

export interface RecordRows {
  ids: string[];
  documents: (string | null)[];
  metadatas: (Metadata | null)[];
}

/** What listing memories needs from a collection: the `chromadb` Collection has this shape too. */
export interface RecordSource {
  get(args: { where?: Where; include: ("documents" | "metadatas")[] }): Promise<RecordRows>;
}

interface Reply {
  status: number;
  body: unknown;
}

function request(endpoint: Pick<ChromaEndpoint, "url">, method: "GET" | "POST", route: string, payload?: unknown): Promise<Reply> {
  const body = payload === undefined ? undefined : JSON.stringify(payload);
  const headers: http.OutgoingHttpHeaders = body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
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
      const req = mod.request(target, { method, headers, timeout: REQUEST_TIMEOUT_MS }, onResponse);
      req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on("error", (error: NodeJS.ErrnoException) => reject(new ChromaUnavailableError(`Chroma at ${endpoint.url} is unreachable (${error.code ?? error.message})`)));
      req.end(body);
    };
    if (target.protocol === "https:") import("node:https").then((https) => send(https.default as unknown as typeof http), reject);
    else send(http);
  });
}

function failure(endpoint: Pick<ChromaEndpoint, "url">, what: string, reply: Reply): ChromaUnavailableError {
  const message = typeof reply.body === "object" && reply.body !== null && "message" in reply.body ? String(reply.body.message) : String(reply.body);
  return new ChromaUnavailableError(`Chroma at ${endpoint.url} could not ${what} (HTTP ${reply.status}: ${message.slice(0, 200)})`);
}

function isRows(body: unknown): body is RecordRows {
  if (typeof body !== "object" || body === null) return false;
  const rows = body as Partial<RecordRows>;
  return Array.isArray(rows.ids) && Array.isArray(rows.documents ?? []) && Array.isArray(rows.metadatas ?? []);
}

/** The named collection for reading, or null when there is no such collection yet. */
export async function readCollection(endpoint: Pick<ChromaEndpoint, "url">, name: string): Promise<RecordSource | null> {
  const found = await request(endpoint, "GET", `${COLLECTIONS}/${encodeURIComponent(name)}`);
  if (found.status === 404) return null;
  const id = typeof found.body === "object" && found.body !== null && "id" in found.body ? found.body.id : undefined;
  if (found.status !== 200 || typeof id !== "string") throw failure(endpoint, `open collection ${name}`, found);
  return {
    async get(args) {
      const reply = await request(endpoint, "POST", `${COLLECTIONS}/${id}/get`, { ...(args.where ? { where: args.where } : {}), include: args.include });
      if (reply.status !== 200 || !isRows(reply.body)) throw failure(endpoint, `read collection ${name}`, reply);
      const rows = reply.body;
      return { ids: rows.ids, documents: rows.documents ?? [], metadatas: rows.metadatas ?? [] };
    },
  };
}
