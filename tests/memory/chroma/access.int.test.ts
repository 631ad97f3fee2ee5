/**
 * A remote Chroma with a token and its own tenant and database (src/memory/chroma/access.ts, through
 * ensureChromaServer): a real Chroma behind a token-checking proxy (tests/helpers/chroma-token-proxy.ts).
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromaAccess } from "../../../src/platform/config/memory-settings.js";
import { chromaClient } from "../../../src/memory/collection.js";
import { readCollection } from "../../../src/memory/chroma/rest.js";
import { ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { ChromaUnavailableError } from "../../../src/memory/chroma/types.js";
import { startRemoteChroma, type RemoteChroma } from "../../helpers/chroma-token-proxy.js";

const TOKEN = "tok-remote-7f3a9c";
let remote: RemoteChroma;
let dataDir = "";

const access = (over: Partial<ChromaAccess> = {}): ChromaAccess => ({ tenant: "team", database: "memory", token: TOKEN, authHeader: "authorization", ...over });

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChromaUnavailableError);
  return error as Error;
}

beforeAll(async () => {
  dataDir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-chroma-access-")));
  remote = await startRemoteChroma(TOKEN);
  await remote.createDatabase("team", "memory");
});
afterAll(async () => {
  await remote?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a remote Chroma with a token, tenant and database", () => {
  it("connects, writes and reads in that tenant and database, with the token on every request", async () => {
    remote.seen.length = 0;
    const endpoint = await ensureChromaServer({ dataDir, chromaUrl: remote.url, access: access() });
    expect(endpoint).toMatchObject({ url: remote.url, tenant: "team", database: "memory", startedByUs: false });
    // The token is in the endpoint's headers only: printing or serializing the endpoint does not show it.
    expect(JSON.stringify(endpoint)).not.toContain(TOKEN);
    expect(endpoint.authHeaders()).toEqual({ authorization: `Bearer ${TOKEN}` });

    expect(await readCollection(endpoint, "notes")).toBeNull();
    const collection = await chromaClient(endpoint).getOrCreateCollection({ name: "notes", embeddingFunction: null });
    await collection.add({ ids: ["n1"], embeddings: [[1, 0]], documents: ["kept remotely"], metadatas: [{ kind: "note" }] });
    const rows = await (await readCollection(endpoint, "notes"))?.get({ include: ["documents", "metadatas"] });
    expect(rows).toEqual({ ids: ["n1"], documents: ["kept remotely"], metadatas: [{ kind: "note" }] });

    // Seen from the server itself: the collection is in team/memory, not in the default database.
    const direct = (tenant: string, database: string): ChromaClient => new ChromaClient({ host: "127.0.0.1", port: remote.upstream.port, tenant, database });
    expect((await direct("team", "memory").listCollections()).map((c) => c.name)).toEqual(["notes"]);
    expect(await direct("default_tenant", "default_database").listCollections()).toEqual([]);
    expect(remote.seen.length).toBeGreaterThan(3);
    expect(remote.seen.filter((r) => r.token !== TOKEN)).toEqual([]);
  });

  it("says in one line that the server refused the token, without the token", async () => {
    const error = await failure(ensureChromaServer({ dataDir, chromaUrl: remote.url, access: access({ token: "wrong-token-1" }) }));
    expect(error.message).toBe(
      `Chroma at ${remote.url} refused the token (HTTP 403); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`,
    );
    expect(error.message).not.toContain("wrong-token-1");
  });

  it("says a token is needed when none is set", async () => {
    const { token: _none, ...noToken } = access();
    const error = await failure(ensureChromaServer({ dataDir, chromaUrl: remote.url, access: noToken }));
    expect(error.message).toBe(`Chroma at ${remote.url} requires a token (HTTP 401); set CHROMA_TOKEN`);
    const bare = await failure(ensureChromaServer({ dataDir, chromaUrl: remote.url }));
    expect(bare.message).toBe(`Chroma at ${remote.url} requires a token (HTTP 401); set CHROMA_TOKEN`);
  });

  it("names a tenant or database that does not exist", async () => {
    const tenant = await failure(ensureChromaServer({ dataDir, chromaUrl: remote.url, access: access({ tenant: "nobody" }) }));
    expect(tenant.message).toBe(`Chroma at ${remote.url} has no tenant "nobody" (CHROMA_TENANT); create it there or fix the name`);
    const database = await failure(ensureChromaServer({ dataDir, chromaUrl: remote.url, access: access({ database: "missing" }) }));
    expect(database.message).toBe(`Chroma at ${remote.url} has no database "missing" in tenant "team" (CHROMA_DATABASE); create it there or fix the name`);
  });

  it("sends the token as X-Chroma-Token when told to", async () => {
    const other = await startRemoteChroma(TOKEN, "x-chroma-token");
    try {
      const endpoint = await ensureChromaServer({
        dataDir,
        chromaUrl: other.url,
        access: access({ tenant: "default_tenant", database: "default_database", authHeader: "x-chroma-token" }),
      });
      expect(endpoint.authHeaders()).toEqual({ "x-chroma-token": TOKEN });
      expect(await readCollection(endpoint, "none")).toBeNull();
      // The Authorization form is not what this server reads (it saw no token): the line points at CHROMA_AUTH_HEADER.
      const error = await failure(
        ensureChromaServer({ dataDir, chromaUrl: other.url, access: access({ tenant: "default_tenant", database: "default_database" }) }),
      );
      expect(error.message).toBe(
        `Chroma at ${other.url} refused the token (HTTP 401); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`,
      );
    } finally {
      await other.stop();
    }
  });
});
