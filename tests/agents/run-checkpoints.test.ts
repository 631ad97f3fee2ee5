import path from "node:path";
import Database from "better-sqlite3";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { buildAgent } from "../../src/agents/build-agent.js";
import type { AgentRunValue } from "../../src/agents/run.js";
import type { AgentRunContext } from "../../src/agents/run.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import { DEFAULT_SAFETY, usageBaseSchema } from "../../src/core/index.js";
import { memoryOff } from "../../src/memory/types.js";
import type { ModelProvider } from "../../src/models/chat-model.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

/**
 * What a long sub-agent run stores in a real SqliteSaver file: every step writes what it adds (one reply, one tool
 * result) and nothing that grows with the run, and the transcript still comes back whole after the process stops
 * mid-run. 120 read_file calls are more than 200 transcript updates: LangGraph's default delta channel copied the
 * whole transcript into a checkpoint every 100 updates.
 */

const CALLS = 120;
const spec = AGENT_SPECS.researcher;

/** Distinct files of the same size, each with a marker found nowhere else. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < CALLS; i++)
    out[`src/file-${String(i).padStart(3, "0")}.ts`] = `// <<marker-${String(i).padStart(3, "0")}>>\n${"export const x = 1;\n".repeat(60)}`;
  return out;
}
const fileOf = (i: number) => `src/file-${String(i).padStart(3, "0")}.ts`;

let ids = 0;
const reply = (name: string, args: Record<string, unknown>) =>
  new AIMessage({
    content: "",
    tool_calls: [{ name, args, id: `call_${++ids}`, type: "tool_call" }],
    usage_metadata: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
  });

/** Reads the files in order, then finishes; `onReply(n)` is told before the n-th reply (0-based) is given. */
function readerModels(onReply: (n: number) => void = () => undefined): ModelProvider {
  return {
    forRole: () =>
      fakeModel().respond((messages: BaseMessage[]) => {
        const n = messages.filter((m) => AIMessage.isInstance(m)).length;
        onReply(n);
        return n < CALLS ? reply("read_file", { path: fileOf(n) }) : reply("submit_findings", { summary: `Read ${CALLS} files.`, findings: [] });
      }),
    describe: () => "scripted",
  };
}

const open: Database.Database[] = [];
function saverOn(file: string): { db: Database.Database; saver: SqliteSaver } {
  const db = new Database(file);
  open.push(db);
  return { db, saver: new SqliteSaver(db) };
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function agentOn(saver: SqliteSaver, models: ModelProvider) {
  const agent = buildAgent({ spec, models, emit: () => undefined, memory: memoryOff, forceAsk: false, prices: DEFAULT_PRICE_TABLE, callTimeoutMs: 10_000 });
  agent.checkpointer = saver;
  return agent;
}

function input(workspace: string) {
  return {
    messages: [
      new SystemMessage(spec.systemPrompt(workspace, ["read_file", spec.finishTool.name])),
      new HumanMessage({ id: "brief-s1", content: "Your step (s1): read every file under src/." }),
    ],
  };
}

/** The run's context, as src/graph/nodes/sub-agent.ts gives it. */
function configFor(workspace: string) {
  const context: AgentRunContext = {
    workspace,
    stepId: "s1",
    safety: { ...DEFAULT_SAFETY, approval: "auto" as const },
    maxModelCalls: CALLS + 5,
    maxPromptTokens: 1_000_000,
    usageBase: usageBaseSchema.parse({}),
    questions: { asked: 0, max: 3 },
    budget: {},
  };
  return { configurable: { thread_id: "long-run" }, recursionLimit: CALLS * 8 + 20, context };
}

/** The tool results of a transcript, in order: each must be the next file, once. */
function readResults(messages: readonly BaseMessage[]): string[] {
  return messages
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === "read_file")
    .map((m) => /<<marker-(\d+)>>/.exec(typeof m.content === "string" ? m.content : "")?.[1] ?? "missing");
}
const allMarkers = Array.from({ length: CALLS }, (_, i) => String(i).padStart(3, "0"));

describe("a long sub-agent run on a SqliteSaver file", () => {
  const ws = useTempWorkspace(files());

  it("writes about the same bytes per step late in the run as early: nothing that grows with the run is copied", async () => {
    const { db, saver } = saverOn(path.join(ws.root, "checkpoints.sqlite"));
    const final = (await agentOn(saver, readerModels()).invoke(input(ws.root), configFor(ws.root))) as AgentRunValue;
    expect(readResults(final.messages)).toEqual(allMarkers);

    // Bytes each checkpoint stored: its blob and metadata, and the writes of the step that followed it.
    const perStep = (
      db
        .prepare(
          `SELECT length(c.checkpoint) + length(c.metadata) + coalesce((SELECT sum(length(w.value)) FROM writes w
             WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id), 0) AS b
           FROM checkpoints c WHERE c.thread_id = 'long-run' ORDER BY c.checkpoint_id`,
        )
        .all() as { b: number }[]
    ).map((r) => r.b);
    // Two steps per call (the model, the tools), as in a bare ReAct loop: early = calls 5..30, late = calls 80..118.
    expect(perStep.length).toBeGreaterThanOrEqual(CALLS * 2);
    expect(perStep.length).toBeLessThan(CALLS * 2 + 10);
    const early = Math.max(...perStep.slice(10, 60));
    const late = Math.max(...perStep.slice(160, perStep.length - 4));
    // A step's own additions (one ~1.2 KB result, one reply) are in both windows; only growth would make late larger.
    expect(late).toBeLessThanOrEqual(early + 256);
  }, 120_000);

  it("gives back every message after the process stops mid-run and resumes, and stores each result once", async () => {
    const file = path.join(ws.root, "checkpoints.sqlite");
    const controller = new AbortController();
    // Stop while the model is asked for its 111th reply: more than 200 transcript updates are already stored.
    const first = saverOn(file);
    const stopping = agentOn(
      first.saver,
      readerModels((n) => n === 110 && !controller.signal.aborted && controller.abort()),
    );
    await expect(stopping.invoke(input(ws.root), { ...configFor(ws.root), signal: controller.signal })).rejects.toThrow();
    first.db.close();

    // A new connection and a freshly compiled agent, as a new process would have: only the file carries the run.
    const second = saverOn(file);
    const partial = (await agentOn(second.saver, readerModels()).getState(configFor(ws.root))).values as AgentRunValue;
    expect(readResults(partial.messages)).toEqual(allMarkers.slice(0, 110));
    const final = (await agentOn(second.saver, readerModels()).invoke(null, configFor(ws.root))) as AgentRunValue;
    expect(readResults(final.messages)).toEqual(allMarkers);
    expect(final.messages.filter((m) => AIMessage.isInstance(m))).toHaveLength(CALLS + 1);

    const third = saverOn(file);
    const read = (await agentOn(third.saver, readerModels()).getState(configFor(ws.root))).values as AgentRunValue;
    expect(read.messages.map((m) => m.id)).toEqual(final.messages.map((m) => m.id));

    // Each file's content is in exactly one stored row (its tool result's write), never in a copy of the transcript.
    const rowsWith = third.db.prepare(
      "SELECT (SELECT count(*) FROM writes WHERE instr(CAST(value AS TEXT), @marker) > 0) + (SELECT count(*) FROM checkpoints WHERE instr(CAST(checkpoint AS TEXT), @marker) > 0) AS n",
    );
    const copies = allMarkers.map((m) => (rowsWith.get({ marker: `<<marker-${m}>>` }) as { n: number }).n);
    expect(copies).toEqual(allMarkers.map(() => 1));
  }, 120_000);
});
