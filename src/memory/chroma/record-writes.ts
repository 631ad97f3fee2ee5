/**
 * Upserts and updates with vectors, sent to Chroma as base64 (little-endian float32), the way its own client does
 * when the server supports it. The client packs each vector byte by byte into a string first: about 0.5 ms for a
 * 1,024-dimension vector, a fifth of a full index build's time, where `Buffer` does the same in 0.01 ms. Everything
 * else (opening, queries, deletes) stays with the `chromadb` client.
 */
import type { ChromaClient, Collection, Metadata } from "chromadb";
import { chromaRequest, replyMessage, type ChromaTarget } from "./http.js";

export interface VectorRecords {
  ids: string[];
  embeddings: number[][];
  metadatas?: Metadata[];
  documents?: string[];
}

export type VectorWrite = "upsert" | "update";

/** Writes records with vectors into collections of one server, reached by one client and endpoint. */
export class VectorWriter {
  private base64: Promise<boolean> | undefined;

  constructor(
    private readonly client: Pick<ChromaClient, "supportsBase64Encoding">,
    private readonly endpoint: ChromaTarget,
  ) {}

  async write(collection: Collection, kind: VectorWrite, records: VectorRecords): Promise<void> {
    if (records.ids.length === 0) return;
    // The server says whether it reads base64 (its pre-flight checks, asked once); an older one gets the client's path.
    this.base64 ??= this.client.supportsBase64Encoding().catch(() => false);
    if (!(await this.base64)) {
      await (kind === "upsert" ? collection.upsert(records) : collection.update(records));
      return;
    }
    const route = `/api/v2/tenants/${encodeURIComponent(collection.tenant)}/databases/${encodeURIComponent(collection.database)}/collections/${encodeURIComponent(collection.id)}/${kind}`;
    const body = { ids: records.ids, embeddings: records.embeddings.map(base64Vector), metadatas: records.metadatas, documents: records.documents };
    const reply = await chromaRequest(this.endpoint, "POST", route, body);
    if (reply.status < 200 || reply.status >= 300)
      throw new Error(`Chroma refused the ${kind} of ${records.ids.length} records (HTTP ${reply.status}): ${replyMessage(reply)}`);
  }
}

/** A vector as Chroma reads it in base64: its float32 values, little-endian. */
export function base64Vector(vector: readonly number[]): string {
  const values = Float32Array.from(vector);
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  // Float32Array uses the machine's byte order; Chroma expects little-endian.
  if (!LITTLE_ENDIAN) bytes.swap32();
  return bytes.toString("base64");
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
