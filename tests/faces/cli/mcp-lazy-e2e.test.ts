import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { moduleTrace } from "../../helpers/module-trace.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { runCli } from "./cli-process.js";
import { mcpScript } from "./mcp-script.js";

const SDK = /\/node_modules\/@modelcontextprotocol\/sdk\//;

/** The MCP SDK takes a few hundred ms to load: a session loads it only when a server is configured, and not before the first planner call. */
describe("the MCP SDK loads only for sessions with MCP servers", () => {
  const ws = useTempWorkspace();
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedOpenAIServer(mcpScript([]));
  });
  afterEach(() => server.close());

  async function session(name: string) {
    const trace = moduleTrace(ws.root, `trace-${name}`);
    const env = {
      ...trace.env,
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: server.baseUrl,
      MINI_CURSOR_MODEL: "scripted",
      XDG_CONFIG_HOME: path.join(ws.root, "xdg"),
    };
    const result = await runCli(["run", "--force", "Do it"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    return trace.modules();
  }

  it("not without servers; with one, yes", async () => {
    const without = await session("without");
    expect(without.some((m) => m.endsWith("/src/host/session-runner.ts"))).toBe(true);
    expect(without.filter((m) => SDK.test(m))).toEqual([]);
    await fs.writeFile(
      path.join(ws.root, ".mcp.json"),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
    );
    expect((await runCli(["mcp", "trust"], { cwd: ws.root, env: { XDG_CONFIG_HOME: path.join(ws.root, "xdg") } })).code).toBe(0);
    const withServer = await session("with");
    expect(withServer.some((m) => SDK.test(m))).toBe(true);
  });
});
