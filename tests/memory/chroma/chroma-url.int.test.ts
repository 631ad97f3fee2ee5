/**
 * ensureChromaServer with a user-given URL (CHROMA_URL or config), and the startTestChroma helper other tests use.
 */
import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ChromaClient } from "chromadb";
import { afterEach, describe, expect, it } from "vitest";
import { chromaHeartbeat, ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { ChromaUnavailableError, type ChromaEndpoint } from "../../../src/memory/chroma/types.js";
import { freePort } from "../../helpers/free-port.js";
import { chromaServerPids as serverPids, startTestChroma, type TestChroma } from "../../helpers/chroma.js";

const endpoints: ChromaEndpoint[] = [];
const testServers: TestChroma[] = [];
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mini-cursor-chroma-test-")));
  dirs.push(dir);
  return dir;
}

async function ensure(dataDir: string, chromaUrl: string): Promise<ChromaEndpoint> {
  const endpoint = await ensureChromaServer({ dataDir, chromaUrl });
  endpoints.push(endpoint);
  return endpoint;
}

afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.stop();
  for (const server of testServers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) {
    for (const pid of serverPids(dir)) process.kill(pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  }
});

describe("ensureChromaServer: CHROMA_URL", () => {
  it("uses a running server without starting one", async () => {
    const server = await startTestChroma();
    testServers.push(server);
    const dataDir = await tempDir();
    const endpoint = await ensure(dataDir, `${server.url}/`);
    expect(endpoint).toEqual({
      url: server.url,
      host: "127.0.0.1",
      port: server.port,
      ssl: false,
      tenant: "default_tenant",
      database: "default_database",
      authHeaders: expect.any(Function),
      startedByUs: false,
      stop: expect.any(Function),
    });
    expect(endpoint.authHeaders()).toEqual({});
    await endpoint.stop();
    expect(await chromaHeartbeat(server.url, 2_000)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(serverPids(dataDir)).toEqual([]);
  });

  it("throws ChromaUnavailableError naming the URL and the reason when nothing answers", async () => {
    const port = await freePort();
    const error = await ensure(await tempDir(), `http://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromaUnavailableError);
    expect((error as Error).message).toBe(`Chroma at http://127.0.0.1:${port} is unreachable (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it("says so when a server accepts connections but never answers", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await expect(ensure(await tempDir(), `http://127.0.0.1:${port}`)).rejects.toThrow(
        `Chroma at http://127.0.0.1:${port} is unreachable (no answer within 2000 ms)`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("rejects URLs it cannot turn into host, port and ssl", async () => {
    const dataDir = await tempDir();
    await expect(ensure(dataDir, "ftp://example.com")).rejects.toThrow(/must start with http/);
    await expect(ensure(dataDir, "not a url")).rejects.toThrow(/not a valid URL/);
    await expect(ensure(dataDir, "http://localhost:8000/chroma")).rejects.toThrow(/bare server address/);
  });
});

describe("startTestChroma", () => {
  it("restarts on the same port with the data kept, and stop() is idempotent", async () => {
    const server = await startTestChroma(await tempDir());
    testServers.push(server);
    const port = server.port;
    const client = new ChromaClient({ host: "127.0.0.1", port });
    const collection = await client.getOrCreateCollection({ name: "restart-test", embeddingFunction: null });
    await collection.add({ ids: ["a"], embeddings: [[1, 0]], documents: ["kept"] });
    await server.restart();
    expect(server.port).toBe(port);
    const again = await new ChromaClient({ host: "127.0.0.1", port: server.port }).getOrCreateCollection({
      name: "restart-test",
      embeddingFunction: null,
    });
    expect((await again.get({ ids: ["a"] })).documents).toEqual(["kept"]);
    await server.stop();
    await server.stop();
    expect(await chromaHeartbeat(`http://127.0.0.1:${port}`, 1_000)).toBe(false);
    expect(serverPids(server.dataDir)).toEqual([]);
  });
});
