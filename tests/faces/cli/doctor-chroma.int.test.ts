/**
 * `doctor` with a remote Chroma (CHROMA_URL and a token): a real Chroma behind a token-checking proxy. It connects
 * as a session would and says "token set", never the token itself, in the report and in the text.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doctorCommand, type DoctorReport } from "../../../src/faces/cli/commands/doctor.js";
import type { CliIo } from "../../../src/faces/cli/io.js";
import { startRemoteChroma, type RemoteChroma } from "../../helpers/chroma-token-proxy.js";

const TOKEN = "tok-doctor-0b5e77";
let remote: RemoteChroma;
let base = "";

async function doctor(env: NodeJS.ProcessEnv, json: boolean): Promise<string> {
  let text = "";
  const sink = { write: (chunk: string) => void (text += chunk) };
  const io: CliIo = { stdin: process.stdin, stdout: sink, stderr: sink, env: { PATH: process.env.PATH, HOME: base, ...env }, cwd: base };
  await doctorCommand(json ? ["--json"] : [], io, { now: () => 0 });
  return text;
}

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-doctor-chroma-")));
  remote = await startRemoteChroma(TOKEN);
  await remote.createDatabase("acme", "agents");
});
afterAll(async () => {
  await remote?.stop();
  await fs.rm(base, { recursive: true, force: true });
});

describe("doctor with a remote Chroma and a token", () => {
  const env = (token: string): NodeJS.ProcessEnv => ({ CHROMA_URL: remote.url, CHROMA_TOKEN: token, CHROMA_TENANT: "acme", CHROMA_DATABASE: "agents" });

  it("checks the token, tenant and database and says the token is set without showing it", async () => {
    const json = await doctor(env(TOKEN), true);
    expect(json).not.toContain(TOKEN);
    const report = JSON.parse(json) as DoctorReport;
    expect(report.memory).toEqual({
      enabled: true,
      chromaUrl: remote.url,
      tenant: "acme",
      database: "agents",
      token: "set",
      authHeader: "Authorization: Bearer",
      server: { running: true, detail: `Chroma at ${remote.url} answers (tenant acme, database agents, token set)`, url: remote.url },
    });
    const text = await doctor(env(TOKEN), false);
    expect(text).not.toContain(TOKEN);
    expect(text).toMatch(
      new RegExp(`^ {2}Memory +ok {4}CHROMA_URL=${remote.url}: Chroma at ${remote.url} answers \\(tenant acme, database agents, token set\\)$`, "m"),
    );
  });

  it("says the server refused the token, in one line without it", async () => {
    const text = await doctor(env("wrong-doctor-token"), false);
    expect(text).not.toContain("wrong-doctor-token");
    expect(text).toContain(
      `  Memory     info  CHROMA_URL=${remote.url}: Chroma at ${remote.url} refused the token (HTTP 403); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token); memory will be off until it is fixed (tenant acme, database agents, token set)\n`,
    );
  });
});
