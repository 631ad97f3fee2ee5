/**
 * End to end through `langgraph dev`: the graph registered in langgraph.json, served by the LangGraph CLI's dev
 * server, driven with the `@langchain/langgraph-sdk` client, talking to a scripted OpenAI-compatible model over
 * HTTP. Checks what Studio relies on: the assistant exists, a thread run takes its workspace and model from the
 * run's configurable settings, progress events reach the custom stream, and the thread state can be read back.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { WorkspaceStateValue } from "../../../src/graph/state.js";
import type { ProgressEvent } from "../../../src/core/index.js";
import {
  hasToolResult,
  startScriptedOpenAIServer,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { groupMembers, startDevServer, type DevServer } from "./dev-server.js";
import { roleOf } from "../cli/task-script.js";
import { runCli } from "../cli/cli-process.js";
import { startRemoteChroma, type RemoteChroma } from "../../helpers/chroma-token-proxy.js";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const GRAPH_ID = "mini-cursor";
const READY_TIMEOUT_MS = 75_000;
const RUN_TIMEOUT_MS = 40_000;

/** The streamed run's task: a researcher step first, so every agent runs in it. */
const STREAMED_TASK = "look at the README, then create hello.txt containing hi";
const CODER_STEP = { agent: "coder", goal: "Create hello.txt containing hi", acceptanceCriteria: ["hello.txt contains hi"] };

/**
 * Planner: one coder step on the first turn (for STREAMED_TASK a researcher step before it), then finish. Researcher:
 * read README.md, then submit. Coder: write hello.txt, then submit. Reviewer (the final review the graph adds for
 * unreviewed changes): approve. Decided from the request itself, so a retried request gets the same answer.
 */
function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner" && req.messages.some((m) => m.content.includes("Task: pick a port"))) {
    // Asks the person first (ask_user); then finishes with the answer it got.
    const answer = req.messages.find((m) => m.role === "tool")?.content;
    return answer
      ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: answer } }] }
      : { toolCalls: [{ name: "ask_user", args: { question: "Which port?", choices: ["3000", "8080"] } }] };
  }
  if (role === "planner" && req.messages.some((m) => m.content.includes(`Task: ${STREAMED_TASK}`))) {
    const context = req.messages.map((m) => m.content).join("\n");
    if (context.includes("There is no plan yet")) {
      const steps = [{ agent: "researcher", goal: "Say what README.md is about" }, CODER_STEP];
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: steps, finished: false } }] };
    }
    return /Latest report \(s\d+, researcher, done\)/.test(context)
      ? { toolCalls: [{ name: "update_plan", args: { remainingSteps: [CODER_STEP], finished: false } }] }
      : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "hello.txt created" } }] };
  }
  if (role === "planner") {
    const firstTurn = req.messages.some((m) => m.content.includes("There is no plan yet"));
    return firstTurn
      ? {
          toolCalls: [
            {
              name: "update_plan",
              args: { remainingSteps: [CODER_STEP], finished: false },
            },
          ],
        }
      : { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "hello.txt created" } }] };
  }
  if (role === "coder" && req.messages.some((m) => m.content.includes("Overall task: count the files"))) {
    return hasToolResult(req, "execute_command")
      ? { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "counted" } }] }
      : { toolCalls: [{ name: "execute_command", args: { command: "ls | wc -l > count.txt" } }] };
  }
  if (role === "coder") {
    return hasToolResult(req, "write_file")
      ? { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "wrote hello.txt" } }] }
      : { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "hi" } }] };
  }
  if (role === "researcher") {
    return hasToolResult(req, "read_file")
      ? {
          toolCalls: [
            { name: "submit_findings", args: { summary: "README.md is a one-line demo heading", findings: [{ source: "README.md:1", note: "# demo" }] } },
          ],
        }
      : { toolCalls: [{ name: "read_file", args: { path: "README.md" } }] };
  }
  if (role === "reviewer") {
    return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "hello.txt contains hi", problems: [] } }] };
  }
  throw new Error(`unexpected request (tools: ${req.toolNames.join(", ")})`);
}

function isProgressEvent(value: unknown): value is ProgressEvent {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

let model: ScriptedServer | undefined;
let server: DevServer | undefined;
let workspace: TempWorkspace | undefined;
let chroma: RemoteChroma | undefined;
let dataDir = "";

/** The token of the memory server: it must reach Chroma only, never the model. */
const CHROMA_TOKEN = "tok-studio-4e5f6a";

/**
 * Memory for the server and the CLI alike, as a deployed Agent Server would have it: a remote Chroma (a real one
 * behind a token-checking proxy) with a token and a tenant and database of its own; and a data folder of the
 * test's own, which nothing should use.
 */
const memoryEnv = (): Record<string, string> => ({
  CHROMA_URL: chroma?.url ?? "",
  CHROMA_TOKEN,
  CHROMA_TENANT: "studio",
  CHROMA_DATABASE: "memory",
  MINI_CURSOR_DATA_DIR: dataDir,
});

/** A Studio run has the server's checkpointer: it writes no session database of ours into the workspace. */
function expectNoSessionDatabase(root: string): void {
  expect(existsSync(path.join(root, ".mini-cursor", "sessions.sqlite"))).toBe(false);
}

beforeAll(async () => {
  model = await startScriptedOpenAIServer(script);
  workspace = await makeTempWorkspace({ "README.md": "# demo\n" });
  chroma = await startRemoteChroma(CHROMA_TOKEN);
  await chroma.createDatabase("studio", "memory");
  dataDir = await mkdtemp(path.join(os.tmpdir(), "mc-studio-data-"));
  server = await startDevServer({ repoRoot: REPO_ROOT, readyTimeoutMs: READY_TIMEOUT_MS, env: memoryEnv() });
}, READY_TIMEOUT_MS + 15_000);

afterAll(async () => {
  const pgid = server?.pgid;
  const projectDir = server?.projectDir;
  // Each step runs even when an earlier one throws; the first error is reported.
  const results = await Promise.allSettled([
    server?.stop(),
    model?.close(),
    workspace?.cleanup(),
    chroma?.stop(),
    rm(dataDir, { recursive: true, force: true }),
  ]);
  if (pgid !== undefined) expect(groupMembers(pgid)).toEqual([]);
  if (projectDir !== undefined) await expect(readFile(path.join(projectDir, "langgraph.json"))).rejects.toThrow();
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

describe("langgraph dev serves the mini-cursor graph", () => {
  it("shows the inside of every agent: the xray graph and the subgraphs endpoint", async () => {
    if (!server) throw new Error("beforeAll did not finish");
    const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
    const [assistant] = await client.assistants.search({ graphId: GRAPH_ID });
    if (!assistant) throw new Error("no assistant for the graph");
    const plain = await client.assistants.getGraph(assistant.assistant_id);
    expect(plain.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(["planner", "researcher", "coder", "reviewer", "finish"]));
    const xray = await client.assistants.getGraph(assistant.assistant_id, { xray: true });
    const ids = xray.nodes.map((n) => String(n.id));
    for (const agent of ["researcher", "coder", "reviewer"]) {
      expect(ids).toEqual(expect.arrayContaining([`${agent}:model_request`, `${agent}:tools`]));
      // Two steps per model call, as in a bare ReAct loop: the reply gate and the reminder run inside them.
      expect(ids.filter((id) => id.startsWith(`${agent}:`) && !/:(__start__|__end__)$/.test(id)).sort()).toEqual([`${agent}:model_request`, `${agent}:tools`]);
    }
    const subgraphs = await client.assistants.getSubgraphs(assistant.assistant_id);
    expect(Object.keys(subgraphs).sort()).toEqual(["coder", "researcher", "reviewer"]);
  });

  it(
    "prices a run on a local endpoint (127.0.0.1) at $0, exactly as the CLI prices the same session",
    async () => {
      if (!server || !model) throw new Error("beforeAll did not finish");
      const studioWs = await makeTempWorkspace({ "README.md": "# cost\n" });
      const cliWs = await makeTempWorkspace({ "README.md": "# cost\n" });
      try {
        const task = "create hello.txt containing hi";
        const cli = await runCli(["run", task], { cwd: cliWs.root, env: { ...memoryEnv(), OPENAI_BASE_URL: model.baseUrl, MINI_CURSOR_MODEL: "scripted" } });
        expect(cli.code).toBe(0);
        const cliCost = /^Cost: .*$/m.exec(cli.stdout)?.[0];
        expect(cliCost).toBe("Cost: $0");

        const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
        const [assistant] = await client.assistants.search({ graphId: GRAPH_ID });
        if (!assistant) throw new Error("no assistant for the graph");
        const thread = await client.threads.create();
        const config = { configurable: { workspace: studioWs.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test" }, recursionLimit: 60 };
        const calls: ProgressEvent[] = [];
        let finalReport = "";
        for await (const chunk of client.runs.stream(thread.thread_id, assistant.assistant_id, {
          input: { task },
          config,
          streamMode: ["values", "custom"],
          signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
        })) {
          if (chunk.event === "custom" && isProgressEvent(chunk.data) && chunk.data.type === "model_call") calls.push(chunk.data);
          if (chunk.event === "values") finalReport = (chunk.data as Partial<WorkspaceStateValue>).finalReport ?? "";
        }
        // The same cost line as the CLI's, and every streamed running total priced (not unknown).
        expect(/^Cost: .*$/m.exec(finalReport)?.[0]).toBe(cliCost);
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.map((e) => (e.type === "model_call" ? e.total?.costUsd : undefined))).toEqual(calls.map(() => 0));
      } finally {
        await studioWs.cleanup();
        await cliWs.cleanup();
      }
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    "recalls a note added with `mini-cursor memory add` in the planner of a Studio run in that workspace",
    async () => {
      if (!server || !model) throw new Error("beforeAll did not finish");
      const ws = await makeTempWorkspace({ "README.md": "# memo\n" });
      try {
        const note = "Studio memory check: to create hello.txt containing hi, write the file without a trailing newline";
        const added = await runCli(["memory", "add", note], { cwd: ws.root, env: memoryEnv() });
        expect(added.code).toBe(0);
        const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
        const thread = await client.threads.create();
        const before = model.requests.length;
        const config = { configurable: { workspace: ws.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test" }, recursionLimit: 60 };
        await client.runs.wait(thread.thread_id, GRAPH_ID, { input: { task: "create hello.txt containing hi" }, config });
        const state = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
        expect(state.values.status).toBe("done");
        expect(state.values.memories.some((m) => m.includes("Studio memory check"))).toBe(true);
        const firstPlanner = model.requests.slice(before).find((r) => roleOf(r) === "planner");
        expect(firstPlanner?.messages.some((m) => m.content.includes("Studio memory check"))).toBe(true);
        // Through the token-guarded server, with the token on every request and never in what the model saw.
        expect(chroma?.seen.length).toBeGreaterThan(0);
        expect(chroma?.seen.filter((r) => r.token !== CHROMA_TOKEN)).toEqual([]);
        expect(JSON.stringify(model.requests)).not.toContain(CHROMA_TOKEN);
        expectNoSessionDatabase(ws.root);
      } finally {
        await ws.cleanup();
      }
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it(
    "runs a task from Studio-style configurable settings and streams progress",
    async () => {
      if (!server || !model || !workspace) throw new Error("beforeAll did not finish");
      const dev = server;
      onTestFailed(() => {
        console.error(`langgraph dev output (last lines):\n${dev.logTail()}`);
      });

      const client = new Client({ apiUrl: dev.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });

      const assistants = await client.assistants.search({ graphId: GRAPH_ID });
      const assistant = assistants.find((a) => a.graph_id === GRAPH_ID);
      expect(assistant).toBeDefined();
      if (!assistant) return;

      const thread = await client.threads.create();
      const config = {
        configurable: { workspace: workspace.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test" },
        recursionLimit: 60,
      };
      const firstRequest = model.requests.length;

      const progress: ProgressEvent[] = [];
      const errors: unknown[] = [];
      let lastValues: unknown;
      /** Inner nodes seen per agent namespace, from `updates|<agent>:<task id>` events. */
      const inner = new Map<string, Set<string>>();
      const started = Date.now();
      for await (const chunk of client.runs.stream(thread.thread_id, assistant.assistant_id, {
        input: { task: STREAMED_TASK },
        config,
        streamMode: ["values", "custom", "updates"],
        streamSubgraphs: true,
        signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
      })) {
        const [kind, namespace] = chunk.event.split("|");
        if (kind === "updates" && namespace && typeof chunk.data === "object" && chunk.data !== null) {
          const agent = namespace.split(":")[0] ?? "";
          const nodes = inner.get(agent) ?? new Set<string>();
          for (const node of Object.keys(chunk.data)) nodes.add(node);
          inner.set(agent, nodes);
        }
        if (chunk.event.startsWith("custom")) {
          if (isProgressEvent(chunk.data)) progress.push(chunk.data);
        } else if (chunk.event === "values") {
          lastValues = chunk.data;
        } else if (chunk.event === "error") {
          errors.push(chunk.data);
        }
      }
      const runMs = Date.now() - started;

      expect(errors).toEqual([]);
      expect(model.scriptErrors).toEqual([]);

      // Every step of every agent streamed under the agent's own namespace; the planner's model calls too (its
      // createAgent run inside the planner node: model requests, and tools only when it asks the person).
      expect([...inner.keys()].sort()).toEqual(["coder", "planner", "researcher", "reviewer"]);
      for (const agent of ["coder", "researcher", "reviewer"])
        expect([...(inner.get(agent) ?? [])], agent).toEqual(expect.arrayContaining(["model_request", "tools"]));
      expect([...(inner.get("planner") ?? [])]).toEqual(["model_request"]);

      // Final state, as streamed.
      const values = lastValues as Partial<WorkspaceStateValue> | undefined;
      expect(values?.status).toBe("done");
      expect(values?.filesChanged).toEqual(["hello.txt"]);
      expect(values?.workspace).toBe(workspace.root);
      expect(typeof values?.finalReport).toBe("string");
      expect(values?.finalReport).toContain("hello.txt");
      expect(values?.plan?.map((s) => [s.agent, s.status])).toEqual([
        ["researcher", "done"],
        ["coder", "done"],
        ["reviewer", "done"],
      ]);
      expect(values?.reviews?.map((r) => r.decision)).toEqual(["approve"]);

      // The file really exists.
      expect(await readFile(path.join(workspace.root, "hello.txt"), "utf8")).toBe("hi");
      expectNoSessionDatabase(workspace.root);

      // Every model request went to the scripted server under the configured model name, role by role.
      const requests = model.requests.slice(firstRequest);
      expect(requests.map(roleOf)).toEqual(["planner", "researcher", "researcher", "planner", "coder", "coder", "planner", "reviewer", "planner"]);
      expect(new Set(requests.map((r) => r.model))).toEqual(new Set(["scripted"]));

      // Progress reached the custom stream.
      const types = progress.map((e) => e.type);
      expect(types).toContain("plan");
      expect(types).toContain("model_call");
      const stepsStarted = progress.flatMap((e) => (e.type === "step_started" ? [e.agent] : []));
      expect(stepsStarted).toEqual(["researcher", "coder", "reviewer"]);
      const stepsFinished = progress.flatMap((e) => (e.type === "step_finished" ? [[e.agent, e.status]] : []));
      expect(stepsFinished).toEqual([
        ["researcher", "done"],
        ["coder", "done"],
        ["reviewer", "done"],
      ]);

      // The thread's state is retrievable and matches, with nothing left to run.
      const state = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
      expect(state.next).toEqual([]);
      expect(state.values.status).toBe("done");
      expect(state.values.filesChanged).toEqual(["hello.txt"]);
      expect(state.values.finalReport).toBe(values?.finalReport);

      const runs = await client.runs.list(thread.thread_id);
      expect(runs.map((r) => r.status)).toEqual(["success"]);

      console.info(`langgraph dev run took ${runMs} ms; ${progress.length} custom events: ${[...new Set(types)].join(", ")}`);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "pauses for approval with an interrupt and resumes from the API",
    async () => {
      if (!server || !model || !workspace) throw new Error("beforeAll did not finish");
      const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
      const thread = await client.threads.create();
      const config = {
        configurable: { workspace: workspace.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test", approval: "ask" },
        recursionLimit: 60,
      };
      await client.runs.wait(thread.thread_id, GRAPH_ID, { input: { task: "count the files" }, config });

      const paused = await client.threads.getState<WorkspaceStateValue>(thread.thread_id, undefined, { subgraphs: true });
      const interrupts = paused.tasks.flatMap((t) => t.interrupts);
      expect(interrupts).toHaveLength(1);
      expect(interrupts[0]?.value).toMatchObject({ type: "approval", kind: "command", agent: "coder", subject: "ls | wc -l > count.txt" });
      await expect(readFile(path.join(workspace.root, "count.txt"), "utf8")).rejects.toThrow();

      await client.runs.wait(thread.thread_id, GRAPH_ID, { command: { resume: { decision: "approve" } }, config });
      const done = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
      expect(done.values.status).toBe("done");
      expect(done.next).toEqual([]);
      expect(Number((await readFile(path.join(workspace.root, "count.txt"), "utf8")).trim())).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "pauses for a clarifying question with an interrupt, answered from the API with { answer }",
    async () => {
      if (!server || !model || !workspace) throw new Error("beforeAll did not finish");
      const client = new Client({ apiUrl: server.url, apiKey: null, timeoutMs: RUN_TIMEOUT_MS, callerOptions: { maxRetries: 0 } });
      const thread = await client.threads.create();
      const config = { configurable: { workspace: workspace.root, model: "scripted", baseUrl: model.baseUrl, apiKey: "test" }, recursionLimit: 60 };
      await client.runs.wait(thread.thread_id, GRAPH_ID, { input: { task: "pick a port" }, config });

      const paused = await client.threads.getState<WorkspaceStateValue>(thread.thread_id, undefined, { subgraphs: true });
      const interrupts = paused.tasks.flatMap((t) => t.interrupts);
      expect(interrupts.map((i) => i.value)).toEqual([{ type: "question", agent: "planner", stepId: "", question: "Which port?", choices: ["3000", "8080"] }]);

      await client.runs.wait(thread.thread_id, GRAPH_ID, { command: { resume: { answer: "8080" } }, config });
      const done = await client.threads.getState<WorkspaceStateValue>(thread.thread_id);
      expect(done.values.status).toBe("done");
      expect(done.values.summary).toBe("The person answered: 8080");
      expect(done.values.answers).toEqual([{ question: "Which port?", answer: "8080" }]);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
