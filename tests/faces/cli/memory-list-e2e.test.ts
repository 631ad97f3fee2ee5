import fs from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { dropLease, leasesDir, takeLease } from "../../../src/memory/chroma/leases.js";
import { acquireStartLock } from "../../../src/memory/chroma/start-lock.js";
import { serverPaths, writeServerState } from "../../../src/memory/chroma/state-file.js";
import { chromaServerPids, startTestChroma, type TestChroma } from "../../helpers/chroma.js";
import { startRemoteChroma, type RemoteChroma } from "../../helpers/chroma-token-proxy.js";
import { moduleTrace } from "../../helpers/module-trace.js";
import { runCli } from "./cli-process.js";

/**
 * `memory list` starts fast: it reads rows over plain HTTP without the chromadb client, embedders or zod, reuses a
 * running server, and starts none at all when there is no memory data yet.
 */

/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ["-e", ""]).pid ?? 999_999;

const HEAVY = /\/node_modules\/(chromadb|zod|@langchain)\//;

describe("memory list", () => {
  let base = "";
  let dataDir = "";
  let workspace = "";
  let chroma: TestChroma | null = null;
  let remote: RemoteChroma | null = null;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), "mc-memory-list-")));
    dataDir = path.join(base, "data");
    workspace = path.join(base, "ws");
    fs.mkdirSync(workspace);
  });
  afterEach(async () => {
    await chroma?.stop();
    chroma = null;
    await remote?.stop();
    remote = null;
    for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
    await rm(base, { recursive: true, force: true });
  });

  it("says there are no memories without starting Chroma when the data dir has no memory data yet", async () => {
    const trace = moduleTrace(base, "empty");
    const result = await runCli(["memory", "list"], { cwd: workspace, env: { MINI_CURSOR_DATA_DIR: dataDir, ...trace.env } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`No memories for ${workspace} yet.\n`);
    // Nothing started and nothing written: no server process, no state file, not even the data dir.
    expect(chromaServerPids(dataDir)).toEqual([]);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(trace.modules().some((m) => m.endsWith("/src/faces/cli/commands/memory-list.ts"))).toBe(true);
    expect(trace.modules().filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it("lists from the server another process keeps running, leaves it running, and loads no chromadb client", async () => {
    chroma = await startTestChroma(dataDir);
    // Held like a running session holds it: the last process to let go of a local server stops it.
    takeLease(dataDir);
    const env = { MINI_CURSOR_DATA_DIR: dataDir };
    const added = await runCli(["memory", "add", "--workspace", workspace, "--kind", "lesson", "Run the migrations before the tests"], { cwd: base, env });
    expect(added.code).toBe(0);
    const pidsBefore = chromaServerPids(dataDir);
    expect(pidsBefore).toHaveLength(1);

    const trace = moduleTrace(base, "running");
    const result = await runCli(["memory", "list", "--workspace", workspace], { cwd: base, env: { ...env, ...trace.env } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^m-[0-9a-f]{16} {2}\d{4}-\d\d-\d\d {2}\[lesson\] {2}Run the migrations before the tests\n$/);
    expect(chromaServerPids(dataDir)).toEqual(pidsBefore);
    expect(trace.modules().some((m) => m.endsWith("/src/memory/chroma/rest.ts"))).toBe(true);
    expect(trace.modules().filter((m) => HEAVY.test(m))).toEqual([]);
    // Answered by the CommonJS entry alone: no ES module of the build loads (scripts/bundle.mjs).
    expect(trace.buildFiles()).toEqual([path.join("dist", "cli", "main.js")]);

    const json = await runCli(["memory", "list", "--all", "--json"], { cwd: base, env });
    expect(JSON.parse(json.stdout)).toMatchObject([{ kind: "lesson", workspace, text: "Run the migrations before the tests" }]);
  });

  it("reads from a running local server without its start lock or a lease, and still lists after that server stops", async () => {
    chroma = await startTestChroma(dataDir);
    const lease = takeLease(dataDir);
    const env = { MINI_CURSOR_DATA_DIR: dataDir };
    const added = await runCli(["memory", "add", "--workspace", workspace, "--kind", "lesson", "Seed the database first"], { cwd: base, env });
    expect(added.code).toBe(0);
    // Another process holds the start lock (it is starting or stopping the server): a read does not wait for it.
    const release = await acquireStartLock(serverPaths(dataDir).lockFile, 1_000);
    try {
      const started = Date.now();
      const result = await runCli(["memory", "list", "--workspace", workspace], { cwd: base, env });
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain("Seed the database first");
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(fs.readdirSync(leasesDir(dataDir))).toHaveLength(1); // only the one this test holds
    } finally {
      release();
    }
    // The state file names a server that is gone: the listing starts one, and stops it again (no one else uses it).
    dropLease(dataDir, lease);
    await chroma.stop();
    chroma = null;
    writeServerState(dataDir, { pid: deadPid(), port: 9, startedAt: Date.now() });
    const trace = moduleTrace(base, "restart");
    const after = await runCli(["memory", "list", "--workspace", workspace], { cwd: base, env: { ...env, ...trace.env } });
    expect(after.stderr).toBe("");
    expect(after.stdout).toContain("Seed the database first");
    expect(chromaServerPids(dataDir)).toEqual([]);
    // Starting Chroma is left out of the CommonJS entry: the full CLI ran the listing, once, with the same output.
    expect(trace.buildFiles()).toContain(path.join("dist", "app", "app.js"));
    expect(after.stdout.match(/Seed the database first/g)).toHaveLength(1);
  });

  it("adds to and lists from a remote Chroma with a token, tenant and database, and says so in one line when the token is wrong", async () => {
    const token = "tok-cli-3d2e1f";
    remote = await startRemoteChroma(token);
    await remote.createDatabase("acme", "agents");
    const env = { MINI_CURSOR_DATA_DIR: dataDir, CHROMA_URL: remote.url, CHROMA_TOKEN: token, CHROMA_TENANT: "acme", CHROMA_DATABASE: "agents" };
    const added = await runCli(["memory", "add", "--workspace", workspace, "Deploys go through the staging cluster first"], { cwd: base, env });
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const trace = moduleTrace(base, "remote");
    const seenBefore = remote.seen.length;
    const listed = await runCli(["memory", "list", "--workspace", workspace], { cwd: base, env: { ...env, ...trace.env } });
    expect(listed.stderr).toBe("");
    // Two round trips: the collection and its rows (no heartbeat or access check first; they run only on a 404).
    expect(remote.seen.slice(seenBefore).map((r) => r.path.replace(/collections\/[0-9a-f-]{36}/, "collections/ID"))).toEqual([
      "/api/v2/tenants/acme/databases/agents/collections/mini-cursor-memory",
      "/api/v2/tenants/acme/databases/agents/collections/ID/get",
    ]);
    expect(listed.stdout).toMatch(/\[note\] {2}Deploys go through the staging cluster first\n$/);
    expect(trace.modules().filter((m) => HEAVY.test(m))).toEqual([]);
    // Nothing local: no server started, no data written.
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(remote.seen.filter((r) => r.token !== token)).toEqual([]);

    const refused = `Chroma at ${remote.url} refused the token (HTTP 403); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`;
    const wrong = await runCli(["memory", "list"], { cwd: workspace, env: { ...env, CHROMA_TOKEN: "wrong-cli-token" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`mini-cursor: memory is unavailable: ${refused}\n`);
    const search = await runCli(["memory", "search", "deploys"], { cwd: workspace, env: { ...env, CHROMA_TOKEN: "wrong-cli-token" } });
    expect(search.code).toBe(1);
    expect(search.stderr).toBe(`mini-cursor: memory is unavailable: ${refused}\n`);
    const none = await runCli(["memory", "list"], { cwd: workspace, env: { ...env, CHROMA_TOKEN: "" } });
    expect(none.stderr).toBe(`mini-cursor: memory is unavailable: Chroma at ${remote.url} requires a token (HTTP 401); set CHROMA_TOKEN\n`);
    const missing = await runCli(["memory", "list"], { cwd: workspace, env: { ...env, CHROMA_DATABASE: "nope" } });
    expect(missing.stderr).toBe(
      `mini-cursor: memory is unavailable: Chroma at ${remote.url} has no database "nope" in tenant "acme" (CHROMA_DATABASE); create it there or fix the name\n`,
    );
    for (const run of [wrong, search]) expect(run.stdout + run.stderr).not.toContain("wrong-cli-token");
  });

  it("says memory is unavailable, in one line, when CHROMA_URL does not answer", async () => {
    const result = await runCli(["memory", "list"], { cwd: workspace, env: { MINI_CURSOR_DATA_DIR: dataDir, CHROMA_URL: "http://127.0.0.1:9" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "mini-cursor: memory is unavailable: Chroma at http://127.0.0.1:9 is unreachable (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)\n",
    );
  });
});
