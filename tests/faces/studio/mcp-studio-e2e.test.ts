/**
 * MCP servers under `langgraph dev`: a run's workspace gets the servers of its own `.mcp.json`, started when its
 * first sub-agent needs them, and the coder's MCP call reaches the server.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { mcpScript } from "../cli/mcp-script.js";
import { roleOf } from "../cli/task-script.js";
import { runCli } from "../cli/cli-process.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { runOnNewThread, sharedDevServer } from "./dev-server.js";

const RUN_TIMEOUT_MS = 40_000;

let model: ScriptedServer | undefined;
const server = sharedDevServer();
let workspace: TempWorkspace | undefined;
/** Declares the same server, never trusted: the server must not start it. */
let untrustedWorkspace: TempWorkspace | undefined;

beforeAll(async () => {
  model = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__everything__get-sum", args: { a: 40, b: 2 } }]));
  workspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  await writeFile(
    path.join(workspace.root, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
  // A project's servers run once the person trusted them, on the server's machine (its user config).
  const trusted = await runCli(["mcp", "trust"], { cwd: workspace.root, env: { XDG_CONFIG_HOME: server.configHome } });
  if (trusted.code !== 0) throw new Error(`mcp trust failed: ${trusted.stderr}`);
  untrustedWorkspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  await writeFile(
    path.join(untrustedWorkspace.root, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
});

afterAll(async () => {
  const results = await Promise.allSettled([model?.close(), workspace?.cleanup(), untrustedWorkspace?.cleanup()]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

/** Runs the task in `root` through the dev server; the coder's requests of that run. */
async function runIn(root: string): Promise<ScriptedRequest[]> {
  if (!model) throw new Error("beforeAll did not finish");
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
      expect(server.log()).toContain('the project declares the MCP server "everything", not started until you trust it');
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
