import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { startHeaderCheckingProxy, startHttpEverything, type HeaderCheckingProxy, type HttpMcpServer } from "../../services/mcp/http-server.js";
import { runCli } from "./cli-process.js";
import { processesWith } from "./mcp-script.js";

let ws: TempWorkspace;
let http: HttpMcpServer | undefined;
let proxy: HeaderCheckingProxy | undefined;
let env: Record<string, string>;
beforeEach(async () => {
  ws = await makeTempWorkspace();
  env = { XDG_CONFIG_HOME: path.join(ws.root, "xdg"), MCP_TOKEN: "tok-123" };
});
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
  await http?.stop();
  http = undefined;
  await ws.cleanup();
});

interface Listed {
  name: string;
  source: string;
  transport: string;
  status: string;
  reason?: string;
  tools: { name: string; readOnly: boolean }[];
}

describe("mini-cursor mcp list", () => {
  it("shows each server with where it was declared, its status and its tools with read-only marks; stdio and HTTP", async () => {
    http = await startHttpEverything();
    // The server only answers when the header from the user config, ${MCP_TOKEN} expanded, arrives with each request.
    proxy = await startHeaderCheckingProxy(http.url, "Authorization", "Bearer tok-123");
    const marker = `mcp-list-${path.basename(ws.root)}`;
    const mcpJson = path.join(ws.root, ".mcp.json");
    await fs.writeFile(
      mcpJson,
      JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [EVERYTHING, "stdio", marker] }, broken: { command: "/nonexistent/server" } } }),
    );
    await fs.mkdir(path.join(ws.root, "xdg/mini-cursor"), { recursive: true });
    const userConfig = path.join(ws.root, "xdg/mini-cursor/config.json");
    await fs.writeFile(
      userConfig,
      JSON.stringify({
        mcpServers: { remote: { type: "http", url: proxy.url, headers: { Authorization: "Bearer ${MCP_TOKEN}" } }, off: { command: "x", disabled: true } },
      }),
    );

    // The project's servers are listed with what they run, not started, until trusted; the user's own run.
    const before = await runCli(["mcp", "list", "--json"], { cwd: ws.root, env });
    expect(before.code, before.stderr).toBe(0);
    const untrusted = JSON.parse(before.stdout) as (Listed & { runs: string })[];
    expect(untrusted.map((s) => [s.name, s.status])).toEqual([
      ["remote", "connected"],
      ["off", "disabled"],
      ["local", "untrusted"],
      ["broken", "untrusted"],
    ]);
    expect(untrusted[2]?.runs).toBe(`${process.execPath} ${EVERYTHING} stdio ${marker}`);
    expect(untrusted[2]?.tools).toEqual([]);
    const beforeText = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(beforeText.stdout).toContain(
      `  local  untrusted: not started (mini-cursor mcp trust)  (stdio, from ${mcpJson})\n    runs: ${process.execPath} ${EVERYTHING} stdio ${marker}\n`,
    );
    const trust = await runCli(["mcp", "trust"], { cwd: ws.root, env });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(
      `Trusted 2 MCP servers of ${ws.root}:\n  local  ${process.execPath} ${EVERYTHING} stdio ${marker}  (from ${mcpJson})\n  broken  /nonexistent/server  (from ${mcpJson})\n`,
    );

    const json = await runCli(["mcp", "list", "--json"], { cwd: ws.root, env });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const servers = JSON.parse(json.stdout) as Listed[];
    expect(servers.map((s) => [s.name, s.source, s.transport, s.status])).toEqual([
      ["remote", userConfig, "http", "connected"],
      ["off", userConfig, "stdio", "disabled"],
      ["local", mcpJson, "stdio", "connected"],
      ["broken", mcpJson, "stdio", "failed"],
    ]);
    expect(servers[3]?.reason).toBe("command not found: /nonexistent/server");
    for (const s of [servers[0], servers[2]]) {
      const prefix = `mcp__${s?.name ?? ""}__`;
      const described = { description: expect.any(String) as string, renamed: false };
      expect(s?.tools).toContainEqual({ name: `${prefix}get-sum`, original: "get-sum", readOnly: true, ...described });
      expect(s?.tools).toContainEqual({ name: `${prefix}toggle-simulated-logging`, original: "toggle-simulated-logging", readOnly: false, ...described });
    }

    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(new Set(proxy.seen)).toEqual(new Set(["Bearer tok-123"]));

    const text = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`MCP servers (4):`);
    expect(text.stdout).toContain(`  remote  connected  (http, from ${userConfig}, ${servers[0]?.tools.length ?? 0} tools)`);
    expect(text.stdout).toContain(`  broken  failed: command not found: /nonexistent/server  (stdio, from ${mcpJson})`);
    expect(text.stdout).toMatch(/ {4}mcp__local__get-sum +read-only {2}\S/);
    expect(text.stdout).toMatch(/ {4}mcp__local__toggle-simulated-logging +changes/);
    // Listing stops what it started.
    expect(await processesWith(marker)).toEqual([]);

    const doctor = await runCli(["doctor", "--json"], { cwd: ws.root, env: { ...env, MINI_CURSOR_MEMORY: "off" } });
    const report = JSON.parse(doctor.stdout) as { mcp: { ok: boolean; servers: Listed[] } };
    expect(report.mcp.servers.map((s) => s.status)).toEqual(["connected", "disabled", "connected", "failed"]);
    const doctorText = await runCli(["doctor"], { cwd: ws.root, env: { ...env, MINI_CURSOR_MEMORY: "off" } });
    expect(doctorText.stdout).toMatch(
      / {2}MCP {8}warn {2}remote starts \(\d+ tools\); off disabled; local starts \(\d+ tools\); broken failed: command not found: \/nonexistent\/server/,
    );
  });

  it("says in one line why an HTTP server failed: a missing header variable, an endpoint that is not MCP", async () => {
    // An HTTP server that is not an MCP endpoint: it answers 404 with a body.
    const notMcp = await startScriptedOpenAIServer(() => ({ content: "" }));
    try {
      const url = `${new URL(notMcp.baseUrl).origin}/mcp`;
      await fs.writeFile(
        path.join(ws.root, ".mcp.json"),
        JSON.stringify({ mcpServers: { gh: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${GH_TOKEN}" } }, web: { url } } }),
      );
      expect((await runCli(["mcp", "trust", "gh", "web"], { cwd: ws.root, env })).code).toBe(0);
      const result = await runCli(["mcp", "list"], { cwd: ws.root, env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`  gh  failed: $GH_TOKEN is not set (${path.join(ws.root, ".mcp.json")})  (http, from`);
      expect(result.stdout).toContain(
        `  web  failed: ${url} answered HTTP 404: is it a streamable HTTP MCP endpoint (and are its headers right)?  (http, from`,
      );
    } finally {
      await notMcp.close();
    }
  });

  it("says so when nothing is configured, and exits 2 with one line on a bad configuration", async () => {
    const none = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^No MCP servers are configured/);
    await fs.writeFile(path.join(ws.root, "mini-cursor.json"), JSON.stringify({ mcpServers: { broken: { command: "x", url: "http://x" } } }));
    const bad = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `mini-cursor: ${path.join(ws.root, "mini-cursor.json")}: mcpServers.broken: needs either "command" (a stdio server) or "url" (an HTTP server), not both\n`,
    );
    const usage = await runCli(["mcp"], { cwd: ws.root, env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/mcp needs a command: list/);
  });
});
