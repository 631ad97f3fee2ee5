/**
 * MCP servers under `langgraph dev`: a run's workspace gets the servers of its own `.mcp.json`, started when its
 * first sub-agent needs them, and the coder's MCP call reaches the server.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { mcpScript } from "../cli/mcp-script.js";
import { roleOf } from "../cli/task-script.js";
import { runCli } from "../cli/cli-process.js";
import { EVERYTHING } from "../../mcp/everything.js";
import { runOnNewThread, startDevServer, type DevServer } from "./dev-server.js";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const READY_TIMEOUT_MS = 75_000;
const RUN_TIMEOUT_MS = 40_000;

let model: ScriptedServer | undefined;
let server: DevServer | undefined;
let workspace: TempWorkspace | undefined;
/** Declares the same server, never trusted: the server must not start it. */
let untrustedWorkspace: TempWorkspace | undefined;
let configHome = "";

beforeAll(async () => {
  model = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__everything__get-sum", args: { a: 40, b: 2 } }]));
  workspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  await writeFile(
    path.join(workspace.root, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
  configHome = await mkdtemp(path.join(os.tmpdir(), "mc-studio-config-"));
  // A project's servers run once the person trusted them, on the server's machine (its user config).
  const trusted = await runCli(["mcp", "trust"], { cwd: workspace.root, env: { XDG_CONFIG_HOME: configHome } });
  if (trusted.code !== 0) throw new Error(`mcp trust failed: ${trusted.stderr}`);
  untrustedWorkspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  await writeFile(
    path.join(untrustedWorkspace.root, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
  server = await startDevServer({ repoRoot: REPO_ROOT, readyTimeoutMs: READY_TIMEOUT_MS, env: { MINI_CURSOR_MEMORY: "off", XDG_CONFIG_HOME: configHome } });
}, READY_TIMEOUT_MS + 15_000);

afterAll(async () => {
  const results = await Promise.allSettled([
    server?.stop(),
    model?.close(),
    workspace?.cleanup(),
    untrustedWorkspace?.cleanup(),
    rm(configHome, { recursive: true, force: true }),
  ]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

/** Runs the task in `root` through the dev server; the coder's requests of that run. */
async function runIn(root: string): Promise<ScriptedRequest[]> {
  if (!server || !model) throw new Error("beforeAll did not finish");
  const dev = server;
  onTestFailed(() => console.error(`langgraph dev output (last lines):\n${dev.logTail()}`));
  const before = model.requests.length;
  const state = await runOnNewThread(dev, {
    workspace: root,
    baseUrl: model.baseUrl,
    task: "add 40 and 2 with the MCP tool",
    timeoutMs: RUN_TIMEOUT_MS,
    recursionLimit: 60,
  });
  expect(state.status).toBe("done");
  return model.requests.slice(before).filter((r) => roleOf(r) === "coder");
}

describe("MCP servers in Studio (langgraph dev)", () => {
  it(
    "offers the run's workspace MCP tools to the coder and runs its call",
    async () => {
      const coder = await runIn(workspace?.root ?? "");
      expect(coder[0]?.toolNames).toContain("mcp__everything__get-sum");
      expect(coder.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__everything__get-sum")?.content).toMatch(/42/);
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it(
    "does not start the servers of a workspace nobody trusted: its coder gets no MCP tools",
    async () => {
      const coder = await runIn(untrustedWorkspace?.root ?? "");
      expect(coder[0]?.toolNames.some((n) => n.startsWith("mcp__"))).toBe(false);
      expect(server?.logTail()).toContain('the project declares the MCP server "everything", not started until you trust it');
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
