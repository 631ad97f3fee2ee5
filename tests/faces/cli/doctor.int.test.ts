import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand, type DoctorReport } from "../../../src/faces/cli/commands/doctor.js";
import { UsageError } from "../../../src/faces/cli/exit-codes.js";
import type { CliIo } from "../../../src/faces/cli/io.js";
import { dropLease, takeLease } from "../../../src/memory/chroma/leases.js";
import { writeServerState } from "../../../src/memory/chroma/state-file.js";
import { SCRIPTED_MODEL_ID, startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

let base: string;
let workspace: string;
let dataDir: string;
const servers: http.Server[] = [];
/** An endpoint that lists the scripted model and answers any other with "OK". */
let endpoint: ScriptedServer;
beforeAll(async () => {
  endpoint = await startScriptedOpenAIServer(() => ({ content: "OK" }));
});
afterAll(async () => {
  await endpoint.close();
});
/** Model settings whose endpoint answers, so only the part a test breaks fails. */
const working = (key = "k"): NodeJS.ProcessEnv => ({ OPENAI_API_KEY: key, OPENAI_BASE_URL: endpoint.baseUrl, MINI_CURSOR_MODEL: SCRIPTED_MODEL_ID });
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-doctor-")));
  workspace = path.join(base, "workspace");
  dataDir = path.join(base, "data");
  await fs.mkdir(workspace);
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await fs.rm(base, { recursive: true, force: true });
});

const clock = { now: () => 0 };

function makeIo(env: NodeJS.ProcessEnv): { io: CliIo; out: () => string } {
  let text = "";
  const sink = { write: (chunk: string) => void (text += chunk) };
  const io: CliIo = {
    stdin: process.stdin,
    stdout: sink,
    stderr: sink,
    env: { PATH: process.env.PATH, HOME: base, MINI_CURSOR_DATA_DIR: dataDir, ...env },
    cwd: workspace,
  };
  return { io, out: () => text };
}

async function doctorJson(env: NodeJS.ProcessEnv, argv: string[] = []): Promise<{ code: number; report: DoctorReport; text: string }> {
  const { io, out } = makeIo(env);
  const code = await doctorCommand(["--json", ...argv], io, clock);
  return { code, report: JSON.parse(out()) as DoctorReport, text: out() };
}

/** A stand-in Chroma that answers the heartbeat (and has its default database). */
async function heartbeatServer(): Promise<number> {
  const server = http.createServer((req, res) => {
    // Heartbeat, and the default database a remote server is checked for at connect.
    res.statusCode = req.url === "/api/v2/heartbeat" || req.url === "/api/v2/tenants/default_tenant/databases/default_database" ? 200 : 404;
    res.end('{"nanosecond heartbeat":1}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("mini-cursor doctor", () => {
  it("reports every part as JSON and exits 0 when everything required works", async () => {
    const listings = endpoint.modelListings.length;
    const { code, report, text } = await doctorJson({ ...working("sk-doctor-secret"), MINI_CURSOR_CODER_MODEL: "big-coder" });
    expect(code).toBe(0);
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(report.ok).toBe(true);
    expect(report.node).toEqual({ ok: true, version: process.version, required: ">=20" });
    expect(report.sandbox).toMatchObject({
      kind: "bubblewrap",
      version: expect.stringMatching(/^\d+\.\d+/),
      effect: "commands run inside the bubblewrap sandbox",
    });
    expect(report.ripgrep).toMatchObject({ ok: true, version: expect.stringMatching(/^ripgrep \d+/) });
    // The known-read-only class (issue 38), as the README lists it.
    expect(report.commands.readOnly).toEqual(
      expect.arrayContaining(["ls", "cat", expect.stringMatching(/^find \(without -exec/), expect.stringMatching(/^git status\|log\|diff\|show/)]),
    );
    expect(report.config).toEqual({ ok: true, files: [] });
    expect(report.model).toEqual({
      ok: true,
      source: endpoint.baseUrl,
      origin: "endpoint from OPENAI_BASE_URL",
      baseUrl: endpoint.baseUrl,
      model: SCRIPTED_MODEL_ID,
      roleModels: { coder: "big-coder" },
      timeoutMs: 120_000,
      maxRetries: 2,
    });
    // The endpoint was asked with the key; the model it does not list answered a one-token request.
    expect(endpoint.modelListings.slice(listings)).toEqual([{ authorization: "Bearer sk-doctor-secret" }]);
    expect(report.endpoint).toEqual({
      ok: true,
      url: endpoint.baseUrl,
      listing: true,
      models: [
        { name: SCRIPTED_MODEL_ID, available: true, how: "listed" },
        { name: "big-coder", available: true, how: "answered" },
      ],
      detail: `${endpoint.baseUrl} answers; ${SCRIPTED_MODEL_ID}, big-coder available (a one-token request answered)`,
    });
    expect(endpoint.requests.at(-1)?.body).toMatchObject({ model: "big-coder", max_tokens: 1 });
    expect(report.memory).toEqual({
      enabled: true,
      dataDir,
      server: { running: false, detail: "no local Chroma server is running; a session starts one on demand" },
    });
    expect(report.index).toMatchObject({ enabled: true, detail: expect.stringContaining("not running now") });
    expect(report.workspace).toEqual({ path: workspace, dataDir: path.join(workspace, ".mini-cursor"), exists: false, writable: true });
    expect(text).not.toContain("sk-doctor-secret");
    // The writability check leaves nothing behind, and .mini-cursor/ is not created.
    expect(await fs.readdir(workspace)).toEqual([]);
  });

  it("exits 1 and explains when no model endpoint is configured, without throwing", async () => {
    // Nothing listens on port 9 (discard), so the Ollama probe fails at once.
    const { code, report } = await doctorJson({ OLLAMA_HOST: "127.0.0.1:9" });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.model).toMatchObject({ ok: false, error: expect.stringContaining("No model endpoint is configured") });
    expect(report.endpoint).toBeNull();
  });

  it("reports a configuration error in the model settings", async () => {
    const { code, report } = await doctorJson({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(code).toBe(1);
    expect(report.model).toMatchObject({ ok: false, error: expect.stringContaining("no model is named") });
  });

  it("lists the config files in use, and exits 1 naming the file or variable that is broken", async () => {
    const project = path.join(workspace, "mini-cursor.json");
    await fs.writeFile(project, JSON.stringify({ approval: "auto" }));
    expect((await doctorJson(working())).report.config).toEqual({ ok: true, files: [project] });
    await fs.writeFile(project, JSON.stringify({ aproval: "auto" }));
    const broken = await doctorJson(working());
    expect(broken.code).toBe(1);
    expect(broken.report.config).toMatchObject({ ok: false, error: expect.stringContaining(`${project}: (root): unknown key "aproval"`) });
    expect(broken.report.model.ok).toBe(true);
    await fs.rm(project);
    const badVariable = await doctorJson({ ...working(), MINI_CURSOR_APPROVAL: "yolo" });
    expect(badVariable.code).toBe(1);
    expect(badVariable.report.config).toEqual({ ok: false, error: 'MINI_CURSOR_APPROVAL must be ask, auto or read-only, got "yolo"' });
  });

  it("reports a memory configuration error as the reason memory is off", async () => {
    const { report } = await doctorJson({ ...working(), MINI_CURSOR_EMBEDDINGS: "bogus" });
    expect(report.memory).toEqual({ enabled: false, reason: 'MINI_CURSOR_EMBEDDINGS must be one of local, openai, transformers, got "bogus"' });
    expect(report.config.ok).toBe(false);
  });

  it("tells whether the local Chroma server named by the state file answers", async () => {
    const port = await heartbeatServer();
    await fs.mkdir(dataDir, { recursive: true });
    writeServerState(dataDir, { pid: process.pid, port, startedAt: 0 });
    const alive = await doctorJson(working());
    expect(alive.report.memory.server).toMatchObject({ running: true, url: `http://127.0.0.1:${port}`, pid: process.pid });
    expect(alive.report.memory.server?.detail).toBe(
      `a local Chroma server (pid ${process.pid}) answers at http://127.0.0.1:${port}; no session uses it; the last session using it stops it`,
    );
    // One kept up between sessions (MINI_CURSOR_CHROMA_IDLE), with a session holding it.
    writeServerState(dataDir, { pid: process.pid, port, startedAt: 0, stopsWhenIdle: true });
    const lease = takeLease(dataDir);
    const kept = await doctorJson(working());
    dropLease(dataDir, lease);
    expect(kept.report.memory.server?.detail).toBe(
      `a local Chroma server (pid ${process.pid}) answers at http://127.0.0.1:${port}; 1 session uses it; it stops itself once idle for MINI_CURSOR_CHROMA_IDLE seconds (memory stop ends it now)`,
    );
    writeServerState(dataDir, { pid: 999_999, port: 9, startedAt: 0 });
    const dead = await doctorJson(working());
    expect(dead.code).toBe(0);
    expect(dead.report.memory.server).toMatchObject({ running: false, url: "http://127.0.0.1:9" });
    expect(dead.report.memory.server?.detail).toContain("does not answer");
  });

  it("reports CHROMA_URL and a disabled memory", async () => {
    const port = await heartbeatServer();
    const remote = await doctorJson({ ...working(), CHROMA_URL: `http://127.0.0.1:${port}` });
    expect(remote.report.memory).toMatchObject({ enabled: true, chromaUrl: `http://127.0.0.1:${port}`, server: { running: true } });
    expect(remote.report.memory.dataDir).toBeUndefined();
    const off = await doctorJson({ ...working(), MINI_CURSOR_MEMORY: "off" });
    expect(off.report.memory).toEqual({ enabled: false, reason: "memory is disabled (MINI_CURSOR_MEMORY=off)" });
    expect(off.report.index).toMatchObject({ enabled: false, reason: expect.stringContaining("MINI_CURSOR_INDEX=on") });
  });

  it("uses --workspace and sees its data folder", async () => {
    const other = path.join(base, "other");
    await fs.mkdir(path.join(other, ".mini-cursor"), { recursive: true });
    const { report } = await doctorJson(working(), ["--workspace", other]);
    expect(report.workspace).toEqual({ path: other, dataDir: path.join(other, ".mini-cursor"), exists: true, writable: true });
    expect(await fs.readdir(path.join(other, ".mini-cursor"))).toEqual([]);
  });

  it("prints a readable report without --json", async () => {
    const { io, out } = makeIo(working());
    expect(await doctorCommand([], io, clock)).toBe(0);
    const text = out();
    for (const label of ["Node.js", "Sandbox", "ripgrep", "Config", "Model", "Endpoint", "Memory", "Workspace"])
      expect(text).toMatch(new RegExp(`^  ${label} +`, "m"));
    expect(text).toContain("bubblewrap");
    expect(text).toMatch(/Everything required works\.\n$/);
  });

  it("rejects arguments and a missing workspace as usage errors", async () => {
    const { io } = makeIo({});
    await expect(doctorCommand(["extra"], io, clock)).rejects.toThrow(UsageError);
    await expect(doctorCommand(["--workspace", path.join(base, "missing")], io, clock)).rejects.toThrow(UsageError);
  });
});
