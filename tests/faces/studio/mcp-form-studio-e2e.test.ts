/**
 * An MCP server's form (elicitation) under `langgraph dev`: the run pauses with an `mcp_form` interrupt naming the
 * server, its message and fields; a Command resume with the answer goes to the server (the call runs again), with the
 * schema's defaults filled in.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { mcpScript } from "../cli/mcp-script.js";
import { runCli } from "../cli/cli-process.js";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";
import { sharedDevServer } from "./dev-server.js";

const RUN_TIMEOUT_MS = 40_000;
const GRAPH_ID = "mini-cursor";
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../services/mcp/fixtures/client-features-server.mjs");

let model: ScriptedServer | undefined;
const server = sharedDevServer();
let workspace: TempWorkspace | undefined;

beforeAll(async () => {
  model = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__cf__ask", args: {} }]));
  workspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  await writeFile(path.join(workspace.root, ".mcp.json"), JSON.stringify({ mcpServers: { cf: { command: process.execPath, args: [SERVER] } } }));
  const trusted = await runCli(["mcp", "trust"], { cwd: workspace.root, env: { XDG_CONFIG_HOME: server.configHome } });
  if (trusted.code !== 0) throw new Error(`mcp trust failed: ${trusted.stderr}`);
});

afterAll(async () => {
  await model?.close();
  await workspace?.cleanup();
}, 30_000);

describe("an MCP server's form in Studio (langgraph dev)", () => {
  it(
    "pauses the run with an mcp_form interrupt and sends the resumed answer to the server",
    async () => {
      if (!model || !workspace) throw new Error("beforeAll did not finish");
      const dev = server;
      onTestFailed(() => console.error(`langgraph dev output (last lines):\n${dev.logTail()}`));
      const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
      const thread = await client.threads.create();
      const config = {
        configurable: { workspace: workspace.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test", approval: "auto" },
        recursionLimit: 60,
      };
      await client.runs.wait(thread.thread_id, GRAPH_ID, { input: { task: "ask me who I am" }, config });
      const paused = await client.threads.getState<WorkspaceStateValue>(thread.thread_id, undefined, { subgraphs: true });
      const interrupts = paused.tasks.flatMap((t) => [
        ...t.interrupts,
        ...((t.state as { tasks?: { interrupts: { value: unknown }[] }[] } | null)?.tasks ?? []).flatMap((s) => s.interrupts),
      ]);
      expect(interrupts.map((i) => i.value)).toContainEqual(
        expect.objectContaining({
          type: "mcp_form",
          server: "cf",
          message: "Who are you?",
          fields: expect.arrayContaining([expect.objectContaining({ name: "name", default: "Ada", required: true })]) as unknown,
        }),
      );

      await client.runs.wait(thread.thread_id, GRAPH_ID, { command: { resume: { action: "accept", content: { name: "Studio" } } }, config });
      const done = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
      expect(done.values.status).toBe("done");
      const answered = model.requests.flatMap((r) => toolResults(r)).find((t) => t.name === "mcp__cf__ask")?.content ?? "";
      expect(JSON.parse(answered)).toEqual({ action: "accept", content: { name: "Studio", count: 3, colour: "green", subscribe: false } });
    },
    RUN_TIMEOUT_MS * 2,
  );
});
