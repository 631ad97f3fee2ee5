/**
 * With the process launcher running (as in a session), the local Chroma server is started by the launcher's helper,
 * not forked from this process, and still stops, reports its exit and never holds this process open.
 */
import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer, stopLocalServer } from "../../../src/memory/chroma/local-process.js";
import { chromaHeartbeat } from "../../../src/memory/chroma/server.js";
import { launcherHelperPid, startLauncher } from "../../../src/platform/launcher/index.js";
import { isProcessAlive } from "../../../src/platform/process-alive.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function ppid(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describe("the local Chroma server under the process launcher", () => {
  it("is the helper's child, answers, logs to its file, and stops", async () => {
    startLauncher();
    const helper = launcherHelperPid();
    expect(helper).toBeGreaterThan(0);
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-launched-chroma-")));
    dirs.push(dir);
    const logFile = path.join(dir, "chroma-server.log");
    const server = await startLocalServer({ chromaDir: path.join(dir, "chroma"), logFile, env: process.env, startTimeoutMs: 20_000 });
    try {
      expect(ppid(server.pid)).toBe(helper);
      expect(await chromaHeartbeat(`http://127.0.0.1:${server.port}`, 2_000)).toBe(true);
      expect(fs.readFileSync(logFile, "utf8")).toContain("Saving data to");
    } finally {
      await stopLocalServer(server);
    }
    expect(isProcessAlive(server.pid)).toBe(false);
    expect(server.exit).toBeDefined();
  });
});
