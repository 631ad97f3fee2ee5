import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  hasToolResult,
  startScriptedOpenAIServer,
  systemPrompt,
  toolResults,
  type ScriptedRequest,
  type ScriptedServer,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING, FILESYSTEM } from "../../services/mcp/everything.js";
import { startHttpEverything } from "../../services/mcp/http-server.js";
import { runCli, startCli } from "./cli-process.js";
import { mcpScript, processesWith, type McpCall } from "./mcp-script.js";
import { roleOf } from "./task-script.js";

let server: ScriptedServer | undefined;
let ws: TempWorkspace;
let env: Record<string, string>;
/** Every server of a test gets it as an extra argument (server-everything ignores it): found in /proc by it. */
let marker: string;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
  marker = `mcp-test-${path.basename(ws.root)}`;
  env = { OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted", XDG_CONFIG_HOME: path.join(ws.root, ".no-user-config") };
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await ws.cleanup();
});

async function start(calls: McpCall[], onCoder?: (req: ScriptedRequest) => void): Promise<ScriptedServer> {
  server = await startScriptedOpenAIServer(mcpScript(calls, onCoder));
  env.OPENAI_BASE_URL = server.baseUrl;
  return server;
}

/** Writes a project file; one that declares MCP servers is then trusted as a person would (mini-cursor mcp trust). */
async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(path.join(ws.root, file)), { recursive: true });
  await fs.writeFile(path.join(ws.root, file), JSON.stringify(value, null, 2));
  if (typeof value === "object" && value !== null && "mcpServers" in value) {
    const trusted = await runCli(["mcp", "trust"], { cwd: ws.root, env });
    expect(trusted.code, trusted.stderr).toBe(0);
  }
}

const everything = () => ({ command: process.execPath, args: [EVERYTHING, "stdio", marker] });

function coderResults(s: ScriptedServer) {
  return s.requests.filter((r) => roleOf(r) === "coder").flatMap((r) => toolResults(r));
}

function events(stdout: string): { type: string; [key: string]: unknown }[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string });
}

describe("MCP servers in a session (built CLI, scripted model, real servers)", () => {
  it("runs a read-only tool under auto without asking; its result reaches the model; no server is left running", async () => {
    // Looked up while the coder works: the server runs then (so the check after the session can fail).
    const duringSession: Promise<number[]>[] = [];
    const s = await start([{ name: "mcp__everything__get-sum", args: { a: 19, b: 23 } }], () => duringSession.push(processesWith(marker)));
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const result = await runCli(["run", "--json", "Add two numbers with the MCP tool"], { cwd: ws.root, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const coderRequests = s.requests.filter((r) => roleOf(r) === "coder");
    // Offered to the coder beside the built-in tools, read-only or not.
    expect(coderRequests[0]?.toolNames).toEqual(
      expect.arrayContaining(["write_file", "mcp__everything__get-sum", "mcp__everything__echo", "mcp__everything__toggle-simulated-logging"]),
    );
    // Named in its prompt's tool list too.
    expect(systemPrompt(coderRequests[0] ?? s.requests[0]!)).toMatch(/Your tools: .*mcp__everything__get-sum/);
    expect(coderResults(s).find((t) => t.name === "mcp__everything__get-sum")?.content).toMatch(/42/);
    const all = events(result.stdout);
    expect(all.some((e) => e.type === "approval_requested")).toBe(false);
    expect(all).toContainEqual(expect.objectContaining({ type: "tool_result", tool: "mcp__everything__get-sum", ok: true }));
    expect(all.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
    expect((await Promise.all(duringSession)).flat().length).toBeGreaterThan(0);
    expect(await processesWith(marker)).toEqual([]);
  });

  it("asks before a tool that is not read-only under auto, and runs it when an allow rule names it", async () => {
    const toggle = { name: "mcp__everything__toggle-simulated-logging", args: {} };
    let s = await start([toggle]);
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const asked = await runCli(["run", "--json", "Toggle logging"], { cwd: ws.root, env, input: "" });
    expect(asked.code).toBe(130);
    const request = events(asked.stdout).find((e) => e.type === "approval_requested");
    expect(request).toMatchObject({
      kind: "tool",
      tool: "mcp__everything__toggle-simulated-logging",
      suggestedPattern: "mcp__everything__toggle-simulated-logging",
    });
    expect(events(asked.stdout).at(-1)).toMatchObject({ type: "session_finished", status: "awaiting_approval" });
    expect(coderResults(s)).toEqual([]);
    expect(await processesWith(marker)).toEqual([]);

    await s.close();
    s = await start([toggle]);
    await writeJson("mini-cursor.json", { commands: { allow: ["mcp__everything__*"] } });
    const allowed = await runCli(["run", "--json", "--force", "Toggle logging"], { cwd: ws.root, env, input: "" });
    expect(allowed.code).toBe(0);
    expect(events(allowed.stdout).some((e) => e.type === "approval_requested")).toBe(false);
    expect(coderResults(s).find((t) => t.name === toggle.name)?.content).toMatch(/logging/i);
  });

  it("refuses a tool a deny rule names, and offers only read-only tools under read-only", async () => {
    const s = await start([
      { name: "mcp__everything__echo", args: { message: "hello" } },
      { name: "mcp__everything__toggle-simulated-logging", args: {} },
    ]);
    await writeJson("mini-cursor.json", { mcpServers: { everything: everything() }, commands: { deny: ["mcp__everything__echo"] } });
    const result = await runCli(["run", "--approval", "read-only", "Echo"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    const offered = s.requests.find((r) => roleOf(r) === "coder")?.toolNames ?? [];
    expect(offered).toContain("mcp__everything__get-sum");
    expect(offered).not.toContain("mcp__everything__toggle-simulated-logging");
    const results = coderResults(s);
    expect(results.find((t) => t.name === "mcp__everything__echo")?.content).toMatch(
      /not allowed: the tool mcp__everything__echo matches the deny rule "mcp__everything__echo"/,
    );
    expect(results.find((t) => t.name === "mcp__everything__toggle-simulated-logging")?.content).toMatch(/is not available to the coder/);
  });

  it('gives a server\'s tools, read-only or not, only to the agents its "agents" list names', async () => {
    const s = await start([]);
    await writeJson(".mcp.json", { mcpServers: { everything: { ...everything(), agents: ["reviewer"] } } });
    const result = await runCli(["run", "--approval", "auto", "Look, then review"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    const offered = (role: string) => s.requests.filter((r) => roleOf(r) === role).flatMap((r) => r.toolNames);
    expect(offered("coder").length).toBeGreaterThan(0);
    expect(offered("coder").filter((name) => name.startsWith("mcp__"))).toEqual([]);
    expect(offered("reviewer")).toEqual(expect.arrayContaining(["mcp__everything__get-sum", "mcp__everything__toggle-simulated-logging"]));
  });

  it("starts a server that died mid-session again at its next call, with a notice for each; the session goes on", async () => {
    const sum = { name: "mcp__everything__get-sum", args: { a: 1, b: 2 } };
    const s = await start([sum, sum, { name: "mcp__everything__get-sum", args: { a: 2, b: 2 } }], (req) => {
      // The second call is made after the server was killed (SIGKILL: no goodbye on the protocol).
      if (toolResults(req).length === 1) spawnSync("pkill", ["-KILL", "-f", marker]);
    });
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const result = await runCli(["run", "--approval", "auto", "Add three times"], { cwd: ws.root, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lastCoder = s.requests.filter((r) => roleOf(r) === "coder").at(-1);
    const sums = (lastCoder ? toolResults(lastCoder) : []).filter((t) => t.name === "mcp__everything__get-sum");
    expect(sums, `${JSON.stringify(sums)}\n${result.stdout}`).toHaveLength(3);
    expect(sums[0]?.content).toMatch(/3/);
    // The hub either saw the exit before the second call (then it started the server again for it) or the call found
    // the pipe closed (a tool error: a call a server died in is not sent again); the third runs on a new server.
    expect(sums[1]?.content).toMatch(/The sum of 1 and 2 is 3|^Error: .*mcp__everything__get-sum failed: the server closed the connection/);
    expect(sums[2]?.content).toMatch(/The sum of 2 and 2 is 4/);
    const lines = result.stdout.split("\n");
    expect(lines.filter((l) => l.includes('MCP server "everything" stopped'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('MCP server "everything" started again (1 of 2)'))).toHaveLength(1);
    // The new server stopped with the session too.
    expect(await processesWith(marker)).toEqual([]);
  });

  it("starts a project's servers only once trusted, and again only after a changed declaration is trusted again", async () => {
    const s = await start([{ name: "mcp__everything__get-sum", args: { a: 19, b: 23 } }]);
    const declare = (args: string[]) =>
      fs.writeFile(path.join(ws.root, ".mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args } } }));
    const offered = () =>
      s.requests
        .filter((r) => roleOf(r) === "coder")
        .at(-1)
        ?.toolNames.filter((n) => n.startsWith("mcp__")) ?? [];
    const notice =
      '⚠ The project declares the MCP server "everything", not started until you trust it: see what it runs with mini-cursor mcp list, then mini-cursor mcp trust.';
    await declare([EVERYTHING, "stdio", marker]);

    // Not trusted: one notice, no server, no MCP tools.
    const running: Promise<number[]>[] = [];
    const first = startCli(["run", "Add two numbers"], { cwd: ws.root, env });
    const seen = setInterval(() => running.push(processesWith(marker)), 100);
    await first.done;
    clearInterval(seen);
    expect(
      first
        .stdout()
        .split("\n")
        .filter((l) => l.includes("MCP server")),
    ).toEqual([notice]);
    expect(offered()).toEqual([]);
    expect((await Promise.all(running)).flat()).toEqual([]);

    // Trusted: it runs. The trust lives in the user config folder, readable by its owner only.
    const trusted = await runCli(["mcp", "trust", "--json"], { cwd: ws.root, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toEqual({
      workspace: ws.root,
      trusted: true,
      servers: [{ name: "everything", source: path.join(ws.root, ".mcp.json"), runs: `${process.execPath} ${EVERYTHING} stdio ${marker}` }],
    });
    const trustFile = path.join(env.XDG_CONFIG_HOME ?? "", "mini-cursor", "trusted-mcp.json");
    expect((await fs.stat(trustFile)).mode & 0o777).toBe(0o600);
    expect((await runCli(["run", "Add two numbers"], { cwd: ws.root, env })).stdout).not.toContain("not started until you trust");
    expect(offered()).toContain("mcp__everything__get-sum");

    // A changed declaration is a new server as far as trust goes.
    await declare([EVERYTHING, "stdio", marker, "--changed"]);
    expect((await runCli(["run", "Add two numbers"], { cwd: ws.root, env })).stdout).toContain(notice);
    expect(offered()).toEqual([]);
    expect((await runCli(["mcp", "trust", "everything"], { cwd: ws.root, env })).code).toBe(0);
    const untrust = await runCli(["mcp", "untrust"], { cwd: ws.root, env });
    expect(untrust.stdout).toContain(`No longer trusted: 1 MCP server of ${ws.root}:`);
    expect((await runCli(["run", "Add two numbers"], { cwd: ws.root, env })).stdout).toContain(notice);

    // Names that are not the project's servers: one line, exit 2.
    const unknown = await runCli(["mcp", "trust", "nosuch"], { cwd: ws.root, env });
    expect([unknown.code, unknown.stderr]).toEqual([2, `mini-cursor: ${ws.root} declares no MCP server "nosuch" (its servers: everything)\n`]);
    await fs.mkdir(path.join(env.XDG_CONFIG_HOME ?? "", "mini-cursor"), { recursive: true });
    await fs.writeFile(path.join(env.XDG_CONFIG_HOME ?? "", "mini-cursor", "config.json"), JSON.stringify({ mcpServers: { mine: { command: "x" } } }));
    const own = await runCli(["mcp", "trust", "mine"], { cwd: ws.root, env });
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/^mini-cursor: the MCP server "mine" is your own \(.*config\.json\): it needs no trust\n$/);
  });

  it("goes on without a server that fails to start, after one notice", async () => {
    const s = await start([{ name: "mcp__fs__list_directory", args: { path: ws.root } }]);
    await writeJson(".mcp.json", {
      mcpServers: {
        broken: { command: "/nonexistent/mcp-server" },
        // "." is the workspace: servers run there, wherever the CLI runs.
        fs: { command: process.execPath, args: [FILESYSTEM, "."] },
      },
    });
    const result = await runCli(["run", "--workspace", ws.root, "List the files"], { cwd: "/", env });
    expect(result.code).toBe(0);
    const notices = result.stdout.split("\n").filter((l) => l.includes("MCP server"));
    expect(notices).toEqual(['⚠ MCP server "broken" did not start: command not found: /nonexistent/mcp-server. The session goes on without it.']);
    expect(coderResults(s).find((t) => t.name === "mcp__fs__list_directory")?.content).toMatch(/README\.md/);
  });

  it("in ask mode runs read-only tools and asks for the others; resume starts the servers again and runs the approved call", async () => {
    const calls = [
      { name: "mcp__everything__echo", args: { message: "hello there" } },
      { name: "mcp__everything__toggle-simulated-logging", args: {} },
    ];
    let s = await start(calls);
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const asked = await runCli(["run", "--approval", "ask", "--json", "Echo, then toggle logging"], { cwd: ws.root, env, input: "" });
    expect(asked.code).toBe(130);
    const requests = events(asked.stdout).filter((e) => e.type === "approval_requested");
    expect(requests.map((e) => e.tool)).toEqual(["mcp__everything__toggle-simulated-logging"]);
    expect(coderResults(s).map((t) => t.name)).toEqual(["mcp__everything__echo"]);
    expect(await processesWith(marker)).toEqual([]);

    await s.close();
    s = await start(calls);
    const resumed = await runCli(["resume", "--json"], { cwd: ws.root, env, input: "y\n" });
    expect(resumed.code).toBe(0);
    expect(
      events(resumed.stdout)
        .filter((e) => e.type === "approval_requested")
        .map((e) => e.tool),
    ).toEqual(["mcp__everything__toggle-simulated-logging"]);
    expect(coderResults(s).find((t) => t.name === "mcp__everything__toggle-simulated-logging")?.content).toMatch(/logging/i);
    expect(await processesWith(marker)).toEqual([]);
  });

  it("stops its servers when the session is stopped with SIGTERM", async () => {
    let coderAsked = (): void => undefined;
    const coderWorking = new Promise<void>((resolve) => (coderAsked = resolve));
    server = await startScriptedOpenAIServer((req) => {
      if (roleOf(req) !== "coder") return mcpScript([])(req);
      coderAsked();
      return { hangMs: 60_000 };
    });
    env.OPENAI_BASE_URL = server.baseUrl;
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const cli = startCli(["run", "Work slowly"], { cwd: ws.root, env });
    // A CLI that ends before the coder asks fails the test instead of leaving it waiting.
    const ended = cli.done.then(() => Promise.reject(new Error(`the CLI ended early: ${cli.stdout()} ${cli.stderr()}`)));
    ended.catch(() => undefined);
    await Promise.race([coderWorking, ended]);
    expect((await processesWith(marker)).length).toBe(1);
    cli.child.kill("SIGTERM");
    expect((await cli.done).code).toBe(130);
    expect(await processesWith(marker)).toEqual([]);
  });

  it("uses a server over streamable HTTP", async () => {
    const http = await startHttpEverything();
    try {
      const s = await start([{ name: "mcp__remote__echo", args: { message: "over http" } }]);
      await writeJson("mini-cursor.json", { mcpServers: { remote: { url: http.url } } });
      const result = await runCli(["run", "Echo over HTTP"], { cwd: ws.root, env });
      expect(result.code).toBe(0);
      expect(coderResults(s).find((t) => t.name === "mcp__remote__echo")?.content).toMatch(/Echo: over http/);
    } finally {
      await http.stop();
    }
  });

  it("gives a custom agent exactly the MCP tools its file lists", async () => {
    const echoer = "---\nname: echoer\ndescription: Echoes messages through MCP.\ntools: read_file, mcp__everything__echo\n---\nEcho what you are asked to.\n";
    await fs.mkdir(path.join(ws.root, ".mini-cursor/agents"), { recursive: true });
    await fs.writeFile(path.join(ws.root, ".mini-cursor/agents/echoer.md"), echoer);
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const echoerRequests: ScriptedRequest[] = [];
    server = await startScriptedOpenAIServer((req) => {
      const role = roleOf(req);
      if (role === "planner") {
        const first = req.messages.some((m) => m.content.includes("There is no plan yet"));
        return first
          ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "echoer", goal: "Echo hello" }], finished: false } }] }
          : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "echoed" } }] };
      }
      if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "fine" } }] };
      echoerRequests.push(req);
      return hasToolResult(req, "mcp__everything__echo")
        ? { toolCalls: [{ name: "submit_result", args: { summary: "echoed hello" } }] }
        : { toolCalls: [{ name: "mcp__everything__echo", args: { message: "hello" } }] };
    });
    env.OPENAI_BASE_URL = server.baseUrl;
    const result = await runCli(["run", "Echo hello"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    const offered = echoerRequests[0]?.toolNames ?? [];
    expect(offered).toContain("mcp__everything__echo");
    // Read-only, but not listed: a custom agent gets nothing by default.
    expect(offered.filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__everything__echo"]);
    expect(echoerRequests.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__everything__echo")?.content).toBe("Echo: hello");
  });

  it('an "always" answer allows the tool for the rest of the session', async () => {
    const toggle = { name: "mcp__everything__toggle-simulated-logging", args: {} };
    const s = await start([toggle, toggle]);
    await writeJson(".mcp.json", { mcpServers: { everything: everything() } });
    const result = await runCli(["run", "--approval", "ask", "--json", "Toggle logging twice"], { cwd: ws.root, env, input: "a\n" });
    expect(result.code).toBe(0);
    const all = events(result.stdout);
    expect(all.filter((e) => e.type === "approval_requested")).toHaveLength(1);
    expect(all).toContainEqual(expect.objectContaining({ type: "approval_answered", decision: "always", detail: toggle.name }));
    expect(all).toContainEqual(
      expect.objectContaining({ type: "notice", level: "info", message: expect.stringMatching(/^MCP: everything \(\d+ tools\)$/) as string }),
    );
    // The coder's last request carries its whole conversation: both calls ran.
    const last = s.requests.filter((r) => roleOf(r) === "coder").at(-1);
    expect(toolResults(last ?? s.requests[0]!).filter((t) => t.name === toggle.name)).toHaveLength(2);
  });
});
