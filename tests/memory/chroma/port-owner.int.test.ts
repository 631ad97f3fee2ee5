/**
 * Whose server answers on a port (src/memory/chroma/port-owner.ts), and a local Chroma start that finds another
 * process's server answering on the port picked for it: real sockets, a real Chroma server.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLocalServer, stopLocalServer } from "../../../src/memory/chroma/local-process.js";
import { listensOn } from "../../../src/memory/chroma/port-owner.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A server on 127.0.0.1 that answers every request 200 with `{}`, as a Chroma heartbeat does. */
async function impostor(): Promise<number> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

describe("listensOn", () => {
  it("tells the process that listens on a loopback port from one that does not", async () => {
    const port = await impostor();
    expect(listensOn(process.pid, port)).toBe(true);
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    cleanups.push(() => void child.kill("SIGKILL"));
    expect(listensOn(child.pid ?? -1, port)).toBe(false);
  });

  it("is false for a port nobody listens on", async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(listensOn(process.pid, port)).toBe(false);
  });
});

describe("a local Chroma start on a port another server answers", () => {
  it("does not take that server for its own: it starts on another port and answers there", async () => {
    const taken = await impostor();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-port-owner-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const server = await startLocalServer({
      chromaDir: path.join(dir, "chroma"),
      logFile: path.join(dir, "chroma.log"),
      env: process.env,
      startTimeoutMs: 20_000,
      preferredPort: taken,
    });
    cleanups.push(() => stopLocalServer(server));
    expect(server.port).not.toBe(taken);
    expect(listensOn(server.pid, server.port)).toBe(true);
    const beat = await fetch(`http://127.0.0.1:${server.port}/api/v2/heartbeat`);
    expect(((await beat.json()) as Record<string, unknown>)["nanosecond heartbeat"]).toEqual(expect.any(Number));
  });
});
