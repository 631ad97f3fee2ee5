/**
 * Custom agents under `langgraph dev`: the server asks the graph factory for each run's workspace, so the agents in
 * that workspace's `.mini-cursor/agents/` are nodes of the run's graph; their steps stream under their own namespace.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";
import {
  hasToolResult,
  startScriptedOpenAIServer,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { roleOf } from "../cli/task-script.js";
import { sharedDevServer } from "./dev-server.js";

const GRAPH_ID = "mini-cursor";
const RUN_TIMEOUT_MS = 40_000;

const DOCS_WRITER = "---\nname: docs-writer\ndescription: Writes the Markdown docs.\ntools: read_file, write_file\nmodel: docs-model\n---\nWrite short docs.\n";

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    const first = req.messages.some((m) => m.content.includes("There is no plan yet"));
    return first
      ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "docs-writer", goal: "Write docs/usage.md" }], finished: false } }] }
      : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "docs written" } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "fine" } }] };
  if (req.toolNames.includes("submit_result")) {
    return hasToolResult(req, "write_file")
      ? { toolCalls: [{ name: "submit_result", args: { summary: "wrote docs/usage.md" } }] }
      : { toolCalls: [{ name: "write_file", args: { path: "docs/usage.md", content: "# Usage\n" } }] };
  }
  throw new Error(`unexpected request (tools: ${req.toolNames.join(", ")})`);
}

let model: ScriptedServer | undefined;
const server = sharedDevServer();
let workspace: TempWorkspace | undefined;

beforeAll(async () => {
  model = await startScriptedOpenAIServer(script);
  workspace = await makeTempWorkspace({ "README.md": "# demo\n", ".mini-cursor/agents/docs-writer.md": DOCS_WRITER });
});

afterAll(async () => {
  const results = await Promise.allSettled([model?.close(), workspace?.cleanup()]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

describe("custom agents in Studio (langgraph dev)", () => {
  it(
    "mounts the run's workspace agents: the planner routes to docs-writer and its steps stream under its namespace",
    async () => {
      if (!model || !workspace) throw new Error("beforeAll did not finish");
      const dev = server;
      onTestFailed(() => console.error(`langgraph dev output (last lines):\n${dev.logTail()}`));
      const client = new Client({ apiUrl: dev.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
      const [assistant] = await client.assistants.search({ graphId: GRAPH_ID });
      if (!assistant) throw new Error("no assistant for the graph");
      const thread = await client.threads.create();
      const config = {
        configurable: { workspace: workspace.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test", approval: "auto" },
        recursionLimit: 60,
      };
      const namespaces = new Set<string>();
      for await (const chunk of client.runs.stream(thread.thread_id, assistant.assistant_id, {
        input: { task: "document the project" },
        config,
        streamMode: ["updates"],
        streamSubgraphs: true,
        signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
      })) {
        const namespace = chunk.event.split("|")[1];
        if (namespace) namespaces.add(namespace.split(":")[0] ?? "");
        if (chunk.event === "error") throw new Error(`run failed: ${JSON.stringify(chunk.data)}`);
      }
      const state = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
      expect(state.values.status).toBe("done");
      expect(state.values.plan.map((s) => s.agent)).toContain("docs-writer");
      expect(namespaces).toContain("docs-writer");
      expect(await readFile(path.join(workspace.root, "docs/usage.md"), "utf8")).toBe("# Usage\n");
      const planner = model.requests.find((r) => roleOf(r) === "planner");
      expect(planner?.messages[0]?.content).toContain("- docs-writer: Writes the Markdown docs.");
      // The agent file's own model, on the run's endpoint; every other role keeps the run's model.
      const writer = model.requests.filter((r) => r.toolNames.includes("submit_result"));
      expect(writer.length).toBeGreaterThan(0);
      expect(new Set(writer.map((r) => r.model))).toEqual(new Set(["docs-model"]));
      expect(new Set(model.requests.filter((r) => !r.toolNames.includes("submit_result")).map((r) => r.model))).toEqual(new Set(["scripted"]));
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it("draws the built-in agents for the assistant itself (no workspace)", async () => {
    const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
    const [assistant] = await client.assistants.search({ graphId: GRAPH_ID });
    if (!assistant) throw new Error("no assistant for the graph");
    const subgraphs = await client.assistants.getSubgraphs(assistant.assistant_id);
    expect(Object.keys(subgraphs).sort()).toEqual(["coder", "researcher", "reviewer"]);
  });
});
