import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { processAlive, readServerState } from "../../../src/memory/chroma/state-file.js";
import type { ChromaEndpoint } from "../../../src/memory/chroma/types.js";
import { chromaServerPids } from "../../helpers/chroma.js";
import { runCli } from "./cli-process.js";

/** `memory stop` ends the local Chroma server that outlives sessions, unless a session is still using it. */
describe("memory stop", () => {
  let base = "";
  let dataDir = "";
  const endpoints: ChromaEndpoint[] = [];

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-memory-stop-")));
    dataDir = path.join(base, "data");
  });
  afterEach(async () => {
    for (const e of endpoints.splice(0)) await e.stop();
    for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
    await rm(base, { recursive: true, force: true });
  });

  const stop = (json = false) => runCli(["memory", "stop", ...(json ? ["--json"] : [])], { cwd: base, env: { MINI_CURSOR_DATA_DIR: dataDir } });

  it("stops an idle server kept up after its last session, then says none is running", async () => {
    const endpoint = await ensureChromaServer({ dataDir, idleSeconds: 600 });
    await endpoint.stop();
    const pid = readServerState(dataDir)?.pid ?? -1;
    expect(processAlive(pid)).toBe(true);

    const stopped = await stop();
    expect(stopped).toEqual({ code: 0, stdout: `Stopped the local Chroma server (pid ${pid}).\n`, stderr: "" });
    expect(processAlive(pid)).toBe(false);
    expect(readServerState(dataDir)).toBeNull();

    const again = await stop(true);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ status: "not_running" });
  });

  it("leaves a server a session is using running, and exits 1", async () => {
    const endpoint = await ensureChromaServer({ dataDir, idleSeconds: 600 });
    endpoints.push(endpoint);
    const pid = readServerState(dataDir)?.pid ?? -1;
    const refused = await stop(true);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ status: "in_use", pid, sessions: 1 });
    expect(processAlive(pid)).toBe(true);
    expect((await fetch(`${endpoint.url}/api/v2/heartbeat`)).ok).toBe(true);
  });

  it("is for the local server only: with CHROMA_URL it is a usage error", async () => {
    const result = await runCli(["memory", "stop"], { cwd: base, env: { CHROMA_URL: "http://127.0.0.1:9" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("mini-cursor: memory stop stops the local Chroma server; the one at CHROMA_URL is not mini-cursor's to stop\n");
  });
});
