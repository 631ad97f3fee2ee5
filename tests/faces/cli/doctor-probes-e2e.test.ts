import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DoctorReport } from "../../../src/faces/cli/commands/doctor.js";
import { freePort } from "../../helpers/free-port.js";
import {
  SCRIPTED_MODEL_ID,
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedServerOptions,
  type Script,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { CLI, runCli } from "./cli-process.js";

/** doctor, the built CLI, as a user runs it: the endpoint and the workspace are probed for real. */
let ws: TempWorkspace;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  ws = await makeTempWorkspace({ "README.md": "hello\n" });
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await ws.cleanup();
});

async function server(script: Script, options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const s = await startScriptedOpenAIServer(script, options);
  closers.push(() => s.close());
  return s;
}

const endpointEnv = (baseUrl: string, model = SCRIPTED_MODEL_ID, key = "sk-test"): Record<string, string> => ({
  OPENAI_BASE_URL: baseUrl,
  OPENAI_API_KEY: key,
  MINI_CURSOR_MODEL: model,
});

async function doctor(env: Record<string, string>, args: string[] = ["--json"]) {
  const { code, stdout, stderr } = await runCli(["doctor", "--workspace", ws.root, ...args], { cwd: ws.root, env });
  return { code, stdout, stderr, report: args.includes("--json") ? (JSON.parse(stdout) as DoctorReport) : undefined };
}

const notFound = (req: { model: string }) => ({ httpStatus: 404, error: `The model \`${req.model}\` does not exist` });

describe("doctor probes the model endpoint", () => {
  it("exits 0 when the endpoint lists the model, asking with the configured key", async () => {
    const s = await server(() => ({ content: "OK" }));
    const { code, report, stderr } = await doctor(endpointEnv(s.baseUrl));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(report?.ok).toBe(true);
    expect(report?.endpoint).toMatchObject({ ok: true, listing: true, models: [{ name: SCRIPTED_MODEL_ID, available: true, how: "listed" }] });
    expect(s.modelListings).toEqual([{ authorization: "Bearer sk-test" }]);
    expect(s.requests).toHaveLength(0);
  });

  it("says which setting chose the endpoint, naming its URL once", async () => {
    const s = await server(() => ({ content: "OK" }));
    const { code, stdout } = await doctor(endpointEnv(s.baseUrl), []);
    expect(code).toBe(0);
    expect(stdout).toContain(`  Model      ok    ${SCRIPTED_MODEL_ID} at ${s.baseUrl} (endpoint from OPENAI_BASE_URL)\n`);
  });

  it("exits 1 when the model is neither listed nor served, saying what the endpoint has", async () => {
    const s = await server(notFound);
    const { code, report } = await doctor(endpointEnv(s.baseUrl, "gpt-typo"));
    expect(code).toBe(1);
    expect(report?.endpoint).toMatchObject({
      ok: false,
      models: [{ name: "gpt-typo", available: false, how: "refused", error: "HTTP 404: The model `gpt-typo` does not exist" }],
    });
    expect(report?.endpoint?.detail).toBe(
      `${s.baseUrl} answers but cannot serve gpt-typo (HTTP 404: The model \`gpt-typo\` does not exist); it lists ${SCRIPTED_MODEL_ID}`,
    );
  });

  it("falls back to a one-token request when the endpoint serves no model list", async () => {
    const s = await server(() => ({ content: "OK" }), { models: null });
    const { code, report } = await doctor(endpointEnv(s.baseUrl, "local-model"));
    expect(code).toBe(0);
    expect(report?.endpoint).toMatchObject({ ok: true, listing: false, models: [{ name: "local-model", available: true, how: "answered" }] });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]?.body).toMatchObject({ model: "local-model", max_tokens: 1 });

    const refusing = await server(notFound, { models: null });
    const refused = await doctor(endpointEnv(refusing.baseUrl, "local-model"));
    expect(refused.code).toBe(1);
    expect(refused.report?.endpoint).toMatchObject({ ok: false, listing: false, models: [{ name: "local-model", available: false }] });
  });

  it("exits 1 when the endpoint refuses the key", async () => {
    const s = await server(() => ({ content: "OK" }), { apiKey: "sk-right" });
    const { code, report, stdout } = await doctor(endpointEnv(s.baseUrl, SCRIPTED_MODEL_ID, "sk-wrong"));
    expect(code).toBe(1);
    expect(report?.endpoint?.detail).toBe(`${s.baseUrl} refused the API key (HTTP 401: Incorrect API key provided.); check OPENAI_API_KEY`);
    expect(stdout).not.toContain("sk-wrong");
  });

  it("exits 1 when nothing listens at the endpoint", async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const { code, stdout, stderr } = await doctor(endpointEnv(baseUrl), []);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toContain(`  Endpoint   FAIL  nothing answers at ${baseUrl} (connection refused)\n`);
    expect(stdout).toMatch(/A session cannot run here: fix what says FAIL above\.\n$/);
  });

  it("gives up on an endpoint that never answers after its time box, and exits 1", async () => {
    // Accepts connections and never says a word.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as net.AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const { code, report } = await doctor(endpointEnv(baseUrl));
    expect(sockets.size).toBeGreaterThan(0);
    expect(code).toBe(1);
    expect(report?.endpoint).toMatchObject({ ok: false, detail: `${baseUrl} did not answer within 5 s` });
  });
});

describe("doctor probes the workspace", () => {
  it("exits 1 when .mini-cursor is a file, so sessions cannot be stored", async () => {
    const s = await server(() => ({ content: "OK" }));
    fs.writeFileSync(path.join(ws.root, ".mini-cursor"), "not a folder");
    const { code, report } = await doctor(endpointEnv(s.baseUrl));
    expect(code).toBe(1);
    expect(report?.endpoint?.ok).toBe(true);
    expect(report?.workspace).toMatchObject({
      writable: false,
      exists: false,
      error: `${path.join(ws.root, ".mini-cursor")} is not a folder: sessions cannot be stored there (move it away)`,
    });
  });

  it("exits 1 in a read-only workspace (a read-only bind mount), leaving nothing behind", async () => {
    const s = await server(() => ({ content: "OK" }));
    // Root may write through any permission bits, so the workspace is made read-only the way a mount is.
    const child = spawn("bwrap", ["--dev-bind", "/", "/", "--ro-bind", ws.root, ws.root, process.execPath, CLI, "doctor", "--json", "--workspace", ws.root], {
      cwd: ws.root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", ...endpointEnv(s.baseUrl) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("");
    expect(code).toBe(1);
    const report = JSON.parse(out) as DoctorReport;
    expect(report.endpoint?.ok).toBe(true);
    expect(report.workspace).toMatchObject({ writable: false, exists: false });
    expect(report.workspace.error).toContain(`cannot write in ${ws.root} (read-only file system, EROFS)`);
    expect(fs.readdirSync(ws.root)).toEqual(["README.md"]);
  });

  it("checks a writable workspace by writing, and leaves nothing behind", async () => {
    const s = await server(() => ({ content: "OK" }));
    fs.mkdirSync(path.join(ws.root, ".mini-cursor"));
    const { code, report } = await doctor(endpointEnv(s.baseUrl));
    expect(code).toBe(0);
    expect(report?.workspace).toEqual({ path: ws.root, dataDir: path.join(ws.root, ".mini-cursor"), exists: true, writable: true });
    expect(fs.readdirSync(ws.root).sort()).toEqual([".mini-cursor", "README.md"]);
    expect(fs.readdirSync(path.join(ws.root, ".mini-cursor"))).toEqual([]);
  });
});
