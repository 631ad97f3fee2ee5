import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { afterFirstRequest } from "../../src/host/first-request.js";

describe("afterFirstRequest", () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  it("resolves when a fetch has sent its request, before the answer comes", async () => {
    const seen: string[] = [];
    let arrived: (answer: () => void) => void = () => undefined;
    const atServer = new Promise<() => void>((resolve) => (arrived = resolve));
    server = http.createServer((_req, res) =>
      arrived(() => {
        seen.push("answered");
        res.end("ok");
      }),
    );
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const out = afterFirstRequest(60_000).then(() => seen.push("resolved"));
    const reply = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: "POST", body: "{}" });
    await out;
    // Resolved while the server still holds the answer back.
    expect(seen).toContain("resolved");
    expect(seen).not.toContain("answered");
    (await atServer)();
    expect((await reply).status).toBe(200);
    expect(seen.indexOf("resolved")).toBeLessThan(seen.indexOf("answered"));
  });

  it("resolves after the fallback time when no request goes out", async () => {
    const started = Date.now();
    await afterFirstRequest(150);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});
