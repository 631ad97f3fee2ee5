/**
 * ensureChromaServer against real Chroma servers (the one bundled with the chromadb package).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { chromaHeartbeat, ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { processAlive, readServerState, serverPaths, writeServerState } from "../../../src/memory/chroma/state-file.js";
import { ChromaUnavailableError, type ChromaEndpoint } from "../../../src/memory/chroma/types.js";
import { freePort } from "../../helpers/free-port.js";
import { chromaServerPids as serverPids } from "../../helpers/chroma.js";

const SERVER_TS = path.resolve("src/memory/chroma/server.ts");
const endpoints: ChromaEndpoint[] = [];
const dirs: string[] = [];
const allDirs: string[] = [];

/** Waits until Linux reports the process stopped (state T in /proc/PID/stat), at most two seconds. */
async function waitUntilStopped(pid: number): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 10) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state follows the command name, which is in parentheses and may contain spaces.
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("T")) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} did not stop after SIGSTOP`);
}

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "mini-cursor-chroma-test-")));
  dirs.push(dir);
  allDirs.push(dir);
  return dir;
}

async function ensure(dataDir: string, extra: { chromaUrl?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ChromaEndpoint> {
  const endpoint = await ensureChromaServer({ dataDir, ...extra });
  endpoints.push(endpoint);
  return endpoint;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid ?? 999_999;
}

afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.stop();
  // Whatever a failed test left behind: stop it by pid before deleting its folder.
  for (const dir of dirs.splice(0)) {
    for (const pid of serverPids(dir)) process.kill(pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  }
});

afterAll(() => {
  // Scoped to this run's dirs: another test run on the machine may have servers of its own.
  expect(allDirs.flatMap(serverPids)).toEqual([]);
});

describe("ensureChromaServer: local server", () => {
  it("starts a server under the data dir, records it, and its heartbeat answers", async () => {
    const dataDir = await tempDir();
    const endpoint = await ensure(dataDir);
    expect(endpoint).toMatchObject({ host: "127.0.0.1", ssl: false, startedByUs: true });
    expect(endpoint.url).toBe(`http://127.0.0.1:${endpoint.port}`);
    expect(await chromaHeartbeat(endpoint.url, 2_000)).toBe(true);
    const state = readServerState(dataDir);
    expect(state).toMatchObject({ port: endpoint.port });
    expect(serverPids(dataDir)).toEqual([state?.pid]);
    expect(fs.existsSync(path.join(dataDir, "chroma", "chroma.sqlite3"))).toBe(true);
    // The banner goes to the log, not to our output.
    expect(fs.readFileSync(serverPaths(dataDir).logFile, "utf8")).toContain("Saving data to");
  });

  it("reuses the server a second call finds in the same data dir", async () => {
    const dataDir = await tempDir();
    const first = await ensure(dataDir);
    const second = await ensure(dataDir);
    expect(second).toMatchObject({ startedByUs: false, port: first.port, url: first.url });
    await second.stop(); // the starter still uses it: a reuser's stop leaves it alone
    expect(await chromaHeartbeat(first.url, 2_000)).toBe(true);
    expect(serverPids(dataDir)).toHaveLength(1);
  });

  it("keeps the server for a session still using it when the starter stops; the last user stops it", async () => {
    const dataDir = await tempDir();
    const starter = await ensure(dataDir);
    const user = await ensure(dataDir);
    const pid = readServerState(dataDir)?.pid ?? -1;
    await starter.stop();
    expect(await chromaHeartbeat(user.url, 2_000)).toBe(true);
    // A third session arriving now reuses the same server.
    const late = await ensure(dataDir);
    expect(late).toMatchObject({ startedByUs: false, port: user.port });
    await user.stop();
    expect(processAlive(pid)).toBe(true);
    await late.stop();
    expect(processAlive(pid)).toBe(false);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    expect(serverPids(dataDir)).toEqual([]);
  });

  it("stop() stops the server, reaps the pid and removes the state file; a second stop() is harmless", async () => {
    const dataDir = await tempDir();
    const endpoint = await ensure(dataDir);
    const pid = readServerState(dataDir)?.pid ?? -1;
    await endpoint.stop();
    await endpoint.stop();
    expect(await chromaHeartbeat(endpoint.url, 1_000)).toBe(false);
    expect(processAlive(pid)).toBe(false);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    expect(serverPids(dataDir)).toEqual([]);
  });

  it("replaces a stale state file (dead pid) with a new server", async () => {
    const dataDir = await tempDir();
    const stalePid = deadPid();
    writeServerState(dataDir, { pid: stalePid, port: await freePort(), startedAt: 1 });
    const endpoint = await ensure(dataDir);
    expect(endpoint.startedByUs).toBe(true);
    const state = readServerState(dataDir);
    expect(state?.pid).not.toBe(stalePid);
    expect(state?.port).toBe(endpoint.port);
  });

  it("treats a state file whose pid now belongs to another program as stale", async () => {
    const dataDir = await tempDir();
    const sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      writeServerState(dataDir, { pid: sleeper.pid ?? -1, port: await freePort(), startedAt: 1 });
      const endpoint = await ensure(dataDir);
      expect(endpoint.startedByUs).toBe(true);
      expect(readServerState(dataDir)?.pid).not.toBe(sleeper.pid);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it("refuses to start a second server next to a live one that does not answer", async () => {
    const dataDir = await tempDir();
    const first = await ensure(dataDir);
    const state = readServerState(dataDir);
    // Never signal pid -1 (every process of this user) for a missing state file: fail with what there is instead.
    expect(state, `no state file after starting a server on port ${first.port}`).not.toBeNull();
    const pid = state?.pid ?? Number.NaN;
    expect(processAlive(pid)).toBe(true);
    process.kill(pid, "SIGSTOP");
    try {
      // The signal is delivered asynchronously: a server not stopped yet still answers (seen once in CI).
      await waitUntilStopped(pid);
      const error = await ensureChromaServer({ dataDir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChromaUnavailableError);
      expect((error as Error).message).toMatch(new RegExp(`\\(pid ${pid}, port \\d+\\) is running but not answering`));
      expect(serverPids(dataDir)).toEqual([pid]);
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });

  it("takes over a start lock left by a dead process", async () => {
    const dataDir = await tempDir();
    fs.writeFileSync(serverPaths(dataDir).lockFile, `${deadPid()}:left-over`);
    const endpoint = await ensure(dataDir);
    expect(endpoint.startedByUs).toBe(true);
    expect(fs.existsSync(serverPaths(dataDir).lockFile)).toBe(false);
  });

  it("starts exactly one server when two calls race in one process", async () => {
    const dataDir = await tempDir();
    const [a, b] = await Promise.all([ensure(dataDir), ensure(dataDir)]);
    expect([a?.startedByUs, b?.startedByUs].sort()).toEqual([false, true]);
    expect(a?.port).toBe(b?.port);
    expect(serverPids(dataDir)).toHaveLength(1);
  });

  it("starts exactly one server when two processes race, and the last one to exit stops it", async () => {
    const dataDir = await tempDir();
    const script = [
      `const { ensureChromaServer } = await import(${JSON.stringify(SERVER_TS)});`,
      `const e = await ensureChromaServer({ dataDir: ${JSON.stringify(dataDir)} });`,
      `process.stdout.write(JSON.stringify({ port: e.port, startedByUs: e.startedByUs }) + "\\n");`,
      // Stay up until the test closes stdin, then exit without stop(): the exit hook must clean up.
      `process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
    ].join("\n");
    const children = [0, 1].map(() =>
      spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    try {
      const results = await Promise.all(children.map((child) => firstLine(child.stdout)));
      const parsed = results.map((line) => JSON.parse(line) as { port: number; startedByUs: boolean });
      expect(parsed.map((r) => r.startedByUs).sort()).toEqual([false, true]);
      expect(parsed[0]?.port).toBe(parsed[1]?.port);
      const pids = serverPids(dataDir);
      expect(pids).toHaveLength(1);
      // The first to exit leaves the server to the other; the last one's exit hook stops it.
      const [first, last] = children;
      if (!first || !last) throw new Error("two children expected");
      await endStdinAndWait(first);
      expect(processAlive(pids[0] ?? -1)).toBe(true);
      await endStdinAndWait(last);
      // The hook only signals (exit handlers cannot wait); the server, no child of ours, goes a moment later.
      await vi.waitFor(() => expect(processAlive(pids[0] ?? -1)).toBe(false), { timeout: 10_000, interval: 25 });
      expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("keeps data across a stop and a new start", async () => {
    const dataDir = await tempDir();
    const first = await ensure(dataDir);
    const before = await new ChromaClient({ host: first.host, port: first.port }).getOrCreateCollection({
      name: "survive-test",
      embeddingFunction: null,
    });
    await before.add({ ids: ["m1"], embeddings: [[0.1, 0.2, 0.3]], documents: ["remember me"] });
    await first.stop();

    const second = await ensure(dataDir);
    expect(second.startedByUs).toBe(true);
    const after = await new ChromaClient({ host: second.host, port: second.port }).getOrCreateCollection({
      name: "survive-test",
      embeddingFunction: null,
    });
    const got = await after.get({ ids: ["m1"] });
    expect(got.documents).toEqual(["remember me"]);
  });

  it("fails with a clear error when the data dir cannot be written", async () => {
    const parent = await tempDir();
    const blocker = path.join(parent, "not-a-dir");
    fs.writeFileSync(blocker, "");
    const dataDir = path.join(blocker, "data");
    const error = await ensure(dataDir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromaUnavailableError);
    expect((error as Error).message).toMatch(/^cannot write the memory data dir .*not-a-dir\/data \((ENOTDIR|EEXIST)\)/);
  });

  it("gives up after startTimeoutMs and leaves no server behind", async () => {
    const dataDir = await tempDir();
    const error = await ensureChromaServer({ dataDir, startTimeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromaUnavailableError);
    expect((error as Error).message).toMatch(/^the local Chroma server did not answer within 0\.001 s \(log: .*chroma-server\.log\)$/);
    expect(serverPids(dataDir)).toEqual([]);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
  });

  it("reports the server's own error when it exits while starting", async () => {
    const dataDir = await tempDir();
    // A damaged data folder: Chroma's SQLite file is not a database.
    const { chromaDir } = serverPaths(dataDir);
    fs.mkdirSync(chromaDir, { recursive: true });
    fs.writeFileSync(path.join(chromaDir, "chroma.sqlite3"), "not a database\n".repeat(100));
    const error = await ensure(dataDir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromaUnavailableError);
    expect((error as Error).message).toMatch(/^the local Chroma server exited while starting \((SIGABRT|code \d+)\): .*file is not a database.*\(log: /);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    expect(fs.existsSync(serverPaths(dataDir).lockFile)).toBe(false);
  });
});

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf("\n");
      if (newline >= 0) resolve(buffered.slice(0, newline));
    });
    stream.on("end", () => reject(new Error(`child exited before printing a line: ${buffered}`)));
  });
}

function endStdinAndWait(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.stdin?.end();
  });
}
