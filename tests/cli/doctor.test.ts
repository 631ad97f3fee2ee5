import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand, type DoctorReport } from "../../src/cli/commands/doctor.js";
import { UsageError } from "../../src/cli/exit-codes.js";
import type { CliIo } from "../../src/cli/io.js";
import { writeServerState } from "../../src/memory/chroma/state-file.js";

let base: string;
let workspace: string;
let dataDir: string;
const servers: http.Server[] = [];
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
  const io: CliIo = { stdin: process.stdin, stdout: sink, stderr: sink, env: { PATH: process.env.PATH, HOME: base, MINI_CURSOR_DATA_DIR: dataDir, ...env }, cwd: workspace };
  return { io, out: () => text };
}

async function doctorJson(env: NodeJS.ProcessEnv, argv: string[] = []): Promise<{ code: number; report: DoctorReport; text: string }> {
  const { io, out } = makeIo(env);
  const code = await doctorCommand(["--json", ...argv], io, clock);
  return { code, report: JSON.parse(out()) as DoctorReport, text: out() };
}

/** A stand-in Chroma that answers the heartbeat. */
async function heartbeatServer(): Promise<number> {
  const server = http.createServer((req, res) => {
    res.statusCode = req.url === "/api/v2/heartbeat" ? 200 : 404;
    res.end('{"nanosecond heartbeat":1}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("mini-cursor doctor", () => {
  it("reports every part as JSON and exits 0 when everything required works", async () => {
    const { code, report, text } = await doctorJson({ OPENAI_API_KEY: "sk-doctor-secret", MINI_CURSOR_CODER_MODEL: "big-coder" });
    expect(code).toBe(0);
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(report.ok).toBe(true);
    expect(report.node).toEqual({ ok: true, version: process.version, required: ">=20" });
    expect(report.sandbox).toMatchObject({ kind: "bubblewrap", version: expect.stringMatching(/^\d+\.\d+/), effect: "commands run inside the bubblewrap sandbox" });
    expect(report.ripgrep).toMatchObject({ ok: true, version: expect.stringMatching(/^ripgrep \d+/) });
    expect(report.config).toEqual({ ok: true, files: [] });
    expect(report.model).toEqual({ ok: true, source: "OpenAI", model: "gpt-4.1-mini", roleModels: { coder: "big-coder" }, timeoutMs: 120_000, maxRetries: 2 });
    expect(report.memory).toEqual({
      enabled: true,
      dataDir,
      server: { running: false, detail: "no local Chroma server is running; a session starts one on demand" },
    });
    expect(report.workspace).toEqual({ path: workspace, dataDir: path.join(workspace, ".mini-cursor"), exists: false });
    expect(text).not.toContain("sk-doctor-secret");
  });

  it("exits 1 and explains when no model endpoint is configured, without throwing", async () => {
    // Nothing listens on port 9 (discard), so the Ollama probe fails at once.
    const { code, report } = await doctorJson({ OLLAMA_HOST: "127.0.0.1:9" });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.model).toMatchObject({ ok: false, error: expect.stringContaining("No model endpoint is configured") });
  });

  it("reports a configuration error in the model settings", async () => {
    const { code, report } = await doctorJson({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(code).toBe(1);
    expect(report.model).toMatchObject({ ok: false, error: expect.stringContaining("no model is named") });
  });

  it("lists the config files in use, and exits 1 naming the file or variable that is broken", async () => {
    const project = path.join(workspace, "mini-cursor.json");
    await fs.writeFile(project, JSON.stringify({ approval: "auto" }));
    expect((await doctorJson({ OPENAI_API_KEY: "k" })).report.config).toEqual({ ok: true, files: [project] });
    await fs.writeFile(project, JSON.stringify({ aproval: "auto" }));
    const broken = await doctorJson({ OPENAI_API_KEY: "k" });
    expect(broken.code).toBe(1);
    expect(broken.report.config).toMatchObject({ ok: false, error: expect.stringContaining(`${project}: (root): unknown key "aproval"`) });
    expect(broken.report.model.ok).toBe(true);
    await fs.rm(project);
    const badVariable = await doctorJson({ OPENAI_API_KEY: "k", MINI_CURSOR_APPROVAL: "yolo" });
    expect(badVariable.code).toBe(1);
    expect(badVariable.report.config).toEqual({ ok: false, error: 'MINI_CURSOR_APPROVAL must be ask, auto or read-only, got "yolo"' });
  });

  it("reports a memory configuration error as the reason memory is off", async () => {
    const { report } = await doctorJson({ OPENAI_API_KEY: "k", MINI_CURSOR_EMBEDDINGS: "bogus" });
    expect(report.memory).toEqual({ enabled: false, reason: 'MINI_CURSOR_EMBEDDINGS must be one of local, openai, got "bogus"' });
    expect(report.config.ok).toBe(false);
  });

  it("tells whether the local Chroma server named by the state file answers", async () => {
    const port = await heartbeatServer();
    await fs.mkdir(dataDir, { recursive: true });
    writeServerState(dataDir, { pid: process.pid, port, startedAt: 0 });
    const alive = await doctorJson({ OPENAI_API_KEY: "k" });
    expect(alive.report.memory.server).toMatchObject({ running: true, url: `http://127.0.0.1:${port}`, pid: process.pid });
    writeServerState(dataDir, { pid: 999_999, port: 9, startedAt: 0 });
    const dead = await doctorJson({ OPENAI_API_KEY: "k" });
    expect(dead.code).toBe(0);
    expect(dead.report.memory.server).toMatchObject({ running: false, url: "http://127.0.0.1:9" });
    expect(dead.report.memory.server?.detail).toContain("does not answer");
  });

  it("reports CHROMA_URL and a disabled memory", async () => {
    const port = await heartbeatServer();
    const remote = await doctorJson({ OPENAI_API_KEY: "k", CHROMA_URL: `http://127.0.0.1:${port}` });
    expect(remote.report.memory).toMatchObject({ enabled: true, chromaUrl: `http://127.0.0.1:${port}`, server: { running: true } });
    expect(remote.report.memory.dataDir).toBeUndefined();
    const off = await doctorJson({ OPENAI_API_KEY: "k", MINI_CURSOR_MEMORY: "off" });
    expect(off.report.memory).toEqual({ enabled: false, reason: "memory is disabled (MINI_CURSOR_MEMORY=off)" });
  });

  it("uses --workspace and sees its data folder", async () => {
    const other = path.join(base, "other");
    await fs.mkdir(path.join(other, ".mini-cursor"), { recursive: true });
    const { report } = await doctorJson({ OPENAI_API_KEY: "k" }, ["--workspace", other]);
    expect(report.workspace).toEqual({ path: other, dataDir: path.join(other, ".mini-cursor"), exists: true });
  });

  it("prints a readable report without --json", async () => {
    const { io, out } = makeIo({ OPENAI_API_KEY: "k" });
    expect(await doctorCommand([], io, clock)).toBe(0);
    const text = out();
    for (const label of ["Node.js", "Sandbox", "ripgrep", "Config", "Model", "Memory", "Workspace"]) expect(text).toMatch(new RegExp(`^  ${label} +`, "m"));
    expect(text).toContain("bubblewrap");
    expect(text).toMatch(/Everything required works\.\n$/);
  });

  it("rejects arguments and a missing workspace as usage errors", async () => {
    const { io } = makeIo({});
    await expect(doctorCommand(["extra"], io, clock)).rejects.toThrow(UsageError);
    await expect(doctorCommand(["--workspace", path.join(base, "missing")], io, clock)).rejects.toThrow(UsageError);
  });
});
