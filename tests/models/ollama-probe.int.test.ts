import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { probeOllama } from "../../src/models/ollama-probe.js";
import { freePort } from "../helpers/free-port.js";

const servers: http.Server[] = [];

/** Starts a server on 127.0.0.1 (OS-chosen port) and returns its base URL. */
async function serve(handler: http.RequestListener): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

function json(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
}

describe("probeOllama", () => {
  it("returns the model names from /api/tags", async () => {
    const { url, paths } = await serve((_req, res) =>
      json(res, 200, JSON.stringify({ models: [{ name: "qwen2.5-coder:7b", size: 1 }, { name: "llama3:8b" }] })),
    );
    expect(await probeOllama(url, 2000)).toEqual(["qwen2.5-coder:7b", "llama3:8b"]);
    expect(paths).toEqual(["/api/tags"]);
  });

  it("returns an empty list when the server has no models", async () => {
    const { url } = await serve((_req, res) => json(res, 200, "{}"));
    expect(await probeOllama(url, 2000)).toEqual([]);
  });

  it("returns null on a server error", async () => {
    const { url } = await serve((_req, res) => json(res, 500, JSON.stringify({ models: [{ name: "x" }] })));
    expect(await probeOllama(url, 2000)).toBeNull();
  });

  it("returns null on invalid JSON", async () => {
    const { url } = await serve((_req, res) => json(res, 200, "{not json"));
    expect(await probeOllama(url, 2000)).toBeNull();
  });

  it("returns null on JSON of the wrong shape", async () => {
    const { url } = await serve((_req, res) => json(res, 200, JSON.stringify({ models: [{ id: 3 }] })));
    expect(await probeOllama(url, 2000)).toBeNull();
  });

  it("returns null within the timeout when the server never answers", async () => {
    const { url } = await serve(() => undefined);
    const started = performance.now();
    expect(await probeOllama(url, 150)).toBeNull();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(100);
    // The server never answers: only the timeout can end the probe. A wide bound, because a loaded machine delays timers.
    expect(elapsed).toBeLessThan(10_000);
  });

  it("returns null when nothing listens on the port", async () => {
    const port = await freePort();
    expect(await probeOllama(`http://127.0.0.1:${port}`, 2000)).toBeNull();
  });
});
