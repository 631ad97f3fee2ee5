import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchCommand, makeSandboxWorkspace, requireBubblewrap, runSandboxed, type SandboxWorkspace } from "./helpers.js";

let ws: SandboxWorkspace;
let server: http.Server;
let url: string;
let hits = 0;
beforeAll(async () => {
  await requireBubblewrap();
  // A real service on this machine's loopback, as a local database or model server would be.
  server = http.createServer((_req, res) => {
    hits += 1;
    res.end("hello from the host");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  ws = await makeSandboxWorkspace();
  hits = 0;
});
afterEach(async () => {
  await ws.cleanup();
});

describe("bubblewrap sandbox: network", () => {
  it("cannot reach a server on the host's loopback without network", async () => {
    const { content, artifact } = await runSandboxed(ws, fetchCommand(url));
    expect(artifact.command?.exitCode).toBe(7);
    expect(content).toContain("FETCH FAILED: ECONNREFUSED");
    expect(content).toContain("Note: commands have no network access in this sandbox");
    expect(hits).toBe(0);
  });

  it("has only a loopback interface of its own without network", async () => {
    const { content } = await runSandboxed(ws, "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
    expect(content).toMatch(/Output \(stdout and stderr together\):\nlo$/);
  });

  it("cannot resolve or reach outside hosts without network", async () => {
    const { content, artifact } = await runSandboxed(ws, fetchCommand("http://example.com/"));
    expect(artifact.command?.exitCode).toBe(7);
    expect(content).toMatch(/FETCH FAILED: (EAI_AGAIN|ENOTFOUND|ENETUNREACH)/);
  });

  it("reaches the host's server when the network is allowed", async () => {
    const { content, artifact } = await runSandboxed(ws, fetchCommand(url), { allowNetwork: true });
    expect(artifact.command?.exitCode).toBe(0);
    expect(content).toContain("BODY:hello from the host");
    expect(hits).toBe(1);
  });
});
