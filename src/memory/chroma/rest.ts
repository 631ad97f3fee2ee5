/** Just enough of Chroma's v2 REST API to read a collection, over node:http (see http.ts), in the endpoint's tenant and database. */
import type { Metadata, Where } from "chromadb";
import { refusedError } from "./access.js";
import { chromaRequest, replyMessage, type ChromaReply } from "./http.js";
import type { ChromaEndpoint } from "./types.js";
import { ChromaUnavailableError } from "./types.js";

export interface RecordRows {
  ids: string[];
  documents: (string | null)[];
  metadatas: (Metadata | null)[];
}

/** What listing memories needs from a collection: the `chromadb` Collection has this shape too. */
export interface RecordSource {
  get(args: { where?: Where; include: ("documents" | "metadatas")[] }): Promise<RecordRows>;
}

type RestEndpoint = Pick<ChromaEndpoint, "url" | "tenant" | "database" | "authHeaders">;

function collections(endpoint: RestEndpoint): string {
  return `/api/v2/tenants/${encodeURIComponent(endpoint.tenant)}/databases/${encodeURIComponent(endpoint.database)}/collections`;
}

function failure(endpoint: RestEndpoint, what: string, reply: ChromaReply): ChromaUnavailableError {
  return (
    refusedError(endpoint, reply.status) ??
    new ChromaUnavailableError(`Chroma at ${endpoint.url} could not ${what} (HTTP ${reply.status}: ${replyMessage(reply)})`)
  );
}

function isRows(body: unknown): body is RecordRows {
  if (typeof body !== "object" || body === null) return false;
  const rows = body as Partial<RecordRows>;
  return Array.isArray(rows.ids) && Array.isArray(rows.documents ?? []) && Array.isArray(rows.metadatas ?? []);
}

/** The named collection for reading, or null when there is no such collection yet. */
export async function readCollection(endpoint: RestEndpoint, name: string): Promise<RecordSource | null> {
  const found = await chromaRequest(endpoint, "GET", `${collections(endpoint)}/${encodeURIComponent(name)}`);
  if (found.status === 404) return null;
  const id = typeof found.body === "object" && found.body !== null && "id" in found.body ? found.body.id : undefined;
  if (found.status !== 200 || typeof id !== "string") throw failure(endpoint, `open collection ${name}`, found);
  return {
    async get(args) {
      const reply = await chromaRequest(endpoint, "POST", `${collections(endpoint)}/${id}/get`, {
        ...(args.where ? { where: args.where } : {}),
        include: args.include,
      });
      if (reply.status !== 200 || !isRows(reply.body)) throw failure(endpoint, `read collection ${name}`, reply);
      const rows = reply.body;
      return { ids: rows.ids, documents: rows.documents ?? [], metadatas: rows.metadatas ?? [] };
    },
  };
}
