import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand, type DoctorReport } from "../../../src/faces/cli/commands/doctor.js";
import type { CliIo } from "../../../src/faces/cli/io.js";
import { SCRIPTED_MODEL_ID, startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

const KEY = "tvly-DOCTOR-SECRET";

let endpoint: ScriptedServer;
let base: string;
let workspace: string;
beforeAll(async () => {
  endpoint = await startScriptedOpenAIServer(() => ({ content: "OK" }));
});
afterAll(async () => {
  await endpoint.close();
});
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-doctor-web-")));
  workspace = path.join(base, "workspace");
  await fs.mkdir(workspace);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function doctor(json: boolean, extraEnv: Record<string, string> = {}): Promise<string> {
  let text = "";
  const sink = { write: (chunk: string) => void (text += chunk) };
  const env = {
    PATH: process.env.PATH,
    HOME: base,
    XDG_CONFIG_HOME: path.join(base, "xdg"),
    MINI_CURSOR_MEMORY: "off",
    OPENAI_API_KEY: "k",
    OPENAI_BASE_URL: endpoint.baseUrl,
    MINI_CURSOR_MODEL: SCRIPTED_MODEL_ID,
    ...extraEnv,
  };
  const io: CliIo = { stdin: process.stdin, stdout: sink, stderr: sink, env, cwd: workspace };
  await doctorCommand(json ? ["--json"] : [], io, { now: () => 0 });
  return text;
}

async function projectWeb(web: unknown): Promise<void> {
  await fs.writeFile(path.join(workspace, "mini-cursor.json"), JSON.stringify({ web }));
}

describe("doctor reports web access", () => {
  it("shows the hosts and the search provider without its key", async () => {
    await fs.mkdir(path.join(base, "xdg/mini-cursor"), { recursive: true });
    await fs.writeFile(path.join(base, "xdg/mini-cursor/config.json"), JSON.stringify({ web: { search: { provider: "tavily" } } }));
    await projectWeb({ allowHosts: ["127.0.0.1"], denyHosts: ["*.ads.example"] });
    const report = JSON.parse(await doctor(true, { TAVILY_API_KEY: KEY })) as DoctorReport;
    expect(report.web).toEqual({
      enabled: true,
      allowHosts: ["127.0.0.1"],
      denyHosts: ["*.ads.example"],
      search: { provider: "tavily", url: "https://api.tavily.com", keySet: true },
    });
    const text = await doctor(false, { TAVILY_API_KEY: KEY });
    expect(text).toContain(
      "  Web        ok    fetch_url on (public addresses; allowHosts 127.0.0.1; denyHosts *.ads.example); web_search via tavily at https://api.tavily.com (key set)",
    );
    expect(text).not.toContain(KEY);
  });

  it("says why web_search is off, and when the web is off", async () => {
    await projectWeb({ search: { provider: "brave" } });
    expect(await doctor(false)).toContain(
      "  Web        warn  fetch_url on (public addresses); no web_search (web search (brave) is off: BRAVE_API_KEY is not set)",
    );
    await projectWeb({ enabled: false });
    expect(await doctor(false)).toContain("  Web        off   web.enabled is false: fetch_url and web_search are not offered");
  });
});
