import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { mcpScript, type McpCall } from "./mcp-script.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * A server's requests of the session's person and its progress, through the built CLI: a form (elicitation) asked at
 * the terminal a field at a time with the schema's defaults, declined under `--json`; a tool that reports progress
 * outliving its timeout. The server is tests/services/mcp/fixtures/client-features-server.mjs (the MCP SDK's).
 */
const MANY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../services/mcp/fixtures/many-tools-server.mjs");
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../services/mcp/fixtures/client-features-server.mjs");

let server: ScriptedServer | null = null;
let ws: TempWorkspace;
let terminal: TmuxTerminal | null = null;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
  env = { OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted", XDG_CONFIG_HOME: path.join(ws.root, ".no-user-config"), NO_COLOR: "1" };
  await fs.writeFile(path.join(ws.root, ".mcp.json"), JSON.stringify({ mcpServers: { cf: { command: process.execPath, args: [SERVER], timeoutMs: 1000 } } }));
  const trusted = await runCli(["mcp", "trust"], { cwd: ws.root, env });
  expect(trusted.code, trusted.stderr).toBe(0);
});
afterEach(async () => {
  terminal?.close();
  terminal = null;
  await server?.close();
  server = null;
  await ws.cleanup();
});

async function start(calls: McpCall[]): Promise<ScriptedServer> {
  server = await startScriptedOpenAIServer(mcpScript(calls));
  env.OPENAI_BASE_URL = server.baseUrl;
  return server;
}

const resultOf = (s: ScriptedServer, name: string) => s.requests.flatMap((r) => toolResults(r)).find((t) => t.name === name)?.content ?? "";

describe("MCP servers asking the person, and reporting progress, through the CLI", () => {
  it("asks a server's form at the terminal, field by field; Enter takes a default, a bad value is asked again", async () => {
    const s = await start([{ name: "mcp__cf__ask", args: {} }]);
    terminal = TmuxTerminal.start(["run", "Ask me"], { cwd: ws.root, env, cols: 120, rows: 40 });
    const tty = terminal;
    await tty.shows('the MCP server "cf" asks (4 fields):', 1, "the form");
    await tty.shows("Answer it? [y]es, [n]o (decline), [c]ancel:", 1, "whether to answer");
    tty.sendLine("y");
    await tty.shows("Your name [Enter: Ada]:", 1, "the name");
    tty.sendLine("Grace");
    await tty.shows("How many [Enter: 3]:", 1, "the count");
    tty.sendLine("0");
    await tty.shows("at least 1.", 1, "the bad count refused");
    tty.sendLine("");
    await tty.shows("Colour 1) red 2) green [Enter: green]:", 1, "the colour");
    tty.sendLine("1");
    await tty.shows("Subscribe (y/n) [Enter: n]:", 1, "the subscription");
    tty.sendLine("");
    await tty.shows("→ answered", 1, "the form's end");
    expect(await tty.exitCode()).toBe(0);
    expect(JSON.parse(resultOf(s, "mcp__cf__ask"))).toEqual({
      action: "accept",
      content: { name: "Grace", count: 3, colour: "red", subscribe: false },
    });
  }, 120_000);

  it("under --json nobody is asked: the form is declined; progress reports keep a long tool alive and are events", async () => {
    const s = await start([
      { name: "mcp__cf__ask", args: {} },
      { name: "mcp__cf__slow", args: { steps: 4, stepMs: 600 } },
    ]);
    const run = await runCli(["run", "Ask me, then work slowly", "--json"], { cwd: ws.root, env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(resultOf(s, "mcp__cf__ask"))).toEqual({ action: "decline" });
    // 2.4 s of work with a 1 s timeout: each report restarted it.
    expect(resultOf(s, "mcp__cf__slow")).toBe("finished 4 steps (progress token sent)");
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message?: string; tool?: string });
    const progress = events.filter((e) => e.type === "tool_progress");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]).toMatchObject({ tool: "mcp__cf__slow", progress: 1, total: 4, message: "step 1 of 4" });
    expect(events.some((e) => e.type === "form_asked")).toBe(false);
  }, 120_000);

  it("mcp list counts the tools and says which one was renamed because its safe name was taken", async () => {
    const listed = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`  cf  connected  (stdio, from ${path.join(ws.root, ".mcp.json")}, 6 tools)`);
    expect(listed.stdout).toMatch(/ {4}mcp__cf__dup_same +read-only {2}The dotted one\.\n/);
    expect(listed.stdout).toMatch(
      / {4}mcp__cf__dup_same_[0-9a-f]{6} +read-only {2}The underscored one\. \[renamed: "dup_same" has the same safe name as another tool\]/,
    );
  });

  it("a server with 200 tools: requests carry the search tool, not 200 tools; what it finds is offered and runs", async () => {
    await fs.writeFile(path.join(ws.root, ".mcp.json"), JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [MANY] } } }));
    expect((await runCli(["mcp", "trust"], { cwd: ws.root, env })).code).toBe(0);
    const s = await start([
      { name: "search_mcp_tools", args: { query: "weather forecast" } },
      { name: "mcp__big__weather_forecast", args: { city: "Lyon" } },
    ]);
    const run = await runCli(["run", "What is the weather in Lyon?"], { cwd: ws.root, env });
    expect(run.code, run.stderr).toBe(0);
    expect(resultOf(s, "search_mcp_tools")).toContain("- mcp__big__weather_forecast(city): Tells the weather forecast for a city.");
    expect(resultOf(s, "mcp__big__weather_forecast")).toBe("Sunny in Lyon");
    const coder = s.requests.filter((r) => r.toolNames.includes("search_mcp_tools"));
    expect(coder.length).toBeGreaterThanOrEqual(3);
    for (const r of s.requests) expect(r.toolNames.length).toBeLessThanOrEqual(128);
    // Before the search no MCP tool is listed; after it, the one found.
    expect(coder[0]?.toolNames.filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(coder[1]?.toolNames.filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__big__weather_forecast"]);
    const listed = await runCli(["mcp", "list"], { cwd: ws.root, env });
    expect(listed.stdout).toContain("200 tools)");
  }, 120_000);
});
