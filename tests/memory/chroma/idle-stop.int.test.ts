/**
 * A local Chroma server started with an idle time outlives its last session, is reused by the next one, and ends
 * itself once nobody has used it for that long (src/memory/chroma/server-command.ts), leaving a data dir in which
 * the next session starts a fresh server. One started with no idle time ends itself when its sessions were killed.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { processAlive, readServerState, serverPaths } from "../../../src/memory/chroma/state-file.js";
import type { ChromaEndpoint } from "../../../src/memory/chroma/types.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

describe("a local Chroma server with an idle time", () => {
  let temp: TempWorkspace | undefined;
  const endpoints: ChromaEndpoint[] = [];
  const pids: number[] = [];
  afterEach(async () => {
    for (const e of endpoints.splice(0)) await e.stop();
    for (const pid of pids.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
    await temp?.cleanup();
  });

  async function open(dataDir: string, idleSeconds: number): Promise<{ endpoint: ChromaEndpoint; pid: number }> {
    const endpoint = await ensureChromaServer({ dataDir, idleSeconds });
    endpoints.push(endpoint);
    const pid = readServerState(dataDir)?.pid ?? -1;
    pids.push(pid);
    return { endpoint, pid };
  }

  it("outlives its last session, serves the next one, then ends itself and a new session starts a new server", async () => {
    temp = await makeTempWorkspace();
    const dataDir = temp.root;
    const first = await open(dataDir, 2);
    expect(readServerState(dataDir)?.stopsWhenIdle).toBe(true);
    await first.endpoint.stop();
    expect(processAlive(first.pid)).toBe(true);

    // The next session reuses it: no second start.
    const second = await open(dataDir, 2);
    expect(second.pid).toBe(first.pid);
    expect(second.endpoint.startedByUs).toBe(false);
    expect((await fetch(`${second.endpoint.url}/api/v2/heartbeat`)).ok).toBe(true);
    await second.endpoint.stop();

    await until("the idle server has ended", () => !processAlive(first.pid));
    expect(readServerState(dataDir)).toBeNull();
    // The start lock it took names a process that is gone: stale, so the next session is not held up by it.
    const third = await open(dataDir, 0);
    expect(third.pid).not.toBe(first.pid);
    expect(third.endpoint.startedByUs).toBe(true);
    expect((await fetch(`${third.endpoint.url}/api/v2/heartbeat`)).ok).toBe(true);
    await third.endpoint.stop();
    // Started with no idle time: it stops with its last session, as before.
    expect(processAlive(third.pid)).toBe(false);
  });

  it("stays up while a session still holds it, however long that is", async () => {
    temp = await makeTempWorkspace();
    const held = await open(temp.root, 1);
    await sleep(3_500);
    expect(processAlive(held.pid)).toBe(true);
    expect((await fetch(`${held.endpoint.url}/api/v2/heartbeat`)).ok).toBe(true);
    await held.endpoint.stop();
    await until("the idle server has ended", () => !processAlive(held.pid));
  });

  it("with no idle time, ends itself once every session using it was killed (none could stop it)", async () => {
    temp = await makeTempWorkspace();
    const dataDir = temp.root;
    const script = [
      `const { ensureChromaServer } = await import(${JSON.stringify(path.resolve("src/memory/chroma/server.ts"))});`,
      `await ensureChromaServer({ dataDir: ${JSON.stringify(dataDir)}, idleSeconds: 0 });`,
      `process.stdout.write("up\\n");`,
      "setInterval(() => {}, 60_000);",
    ].join("\n");
    const session = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve, reject) => {
        session.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("up") && resolve());
        session.on("exit", (code) => reject(new Error(`the session exited first (${code})`)));
      });
      const pid = readServerState(dataDir)?.pid ?? -1;
      pids.push(pid);
      expect(readServerState(dataDir)?.stopsWhenIdle).toBeUndefined();
      // Its session is alive: the server's own watch (every second) leaves it alone.
      await sleep(2_500);
      expect(processAlive(pid)).toBe(true);
      session.kill("SIGKILL");
      await until("the server of the killed session has ended", () => !processAlive(pid), 10_000);
      expect(readServerState(dataDir)).toBeNull();
      // The next session is not held up by the lock the server left naming itself.
      const next = await open(dataDir, 0);
      expect(next.endpoint.startedByUs).toBe(true);
      await next.endpoint.stop();
      expect(processAlive(next.pid)).toBe(false);
    } finally {
      if (session.exitCode === null && session.signalCode === null) session.kill("SIGKILL");
    }
  });

  it("ends when its data dir is deleted", async () => {
    temp = await makeTempWorkspace();
    const { endpoint, pid } = await open(temp.root, 600);
    await endpoint.stop();
    expect(processAlive(pid)).toBe(true);
    fs.rmSync(temp.root, { recursive: true, force: true });
    await until("the orphaned server has ended", () => !processAlive(pid));
    expect(fs.existsSync(serverPaths(temp.root).stateFile)).toBe(false);
  });
});
