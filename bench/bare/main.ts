import { ChatOpenAICompletions } from "@langchain/openai";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildBareGraph } from "./graph.js";

/**
 * The bare LangGraph program: `node bench/out/bare/main.js --workspace DIR --base-url URL --model NAME "<task>"`.
 * Prints one JSON line with the session's status and sub-agent runs; exits 1 unless the planner finished "done".
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { workspace: { type: "string" }, db: { type: "string" }, "base-url": { type: "string" }, model: { type: "string" } },
});
const workspace = path.resolve(values.workspace ?? ".");
const model = new ChatOpenAICompletions({
  model: values.model ?? process.env.OPENAI_MODEL ?? "gpt-4o-mini",
  apiKey: process.env.OPENAI_API_KEY ?? "none",
  configuration: { baseURL: values["base-url"] ?? process.env.OPENAI_BASE_URL },
});
// Outside the workspace by default, so searching the workspace never reads the database.
const db = path.resolve(values.db ?? path.join(os.tmpdir(), `bare-langgraph-${process.pid}.db`));
fs.mkdirSync(path.dirname(db), { recursive: true });
const checkpointer = SqliteSaver.fromConnString(db);
const graph = buildBareGraph(model, workspace, checkpointer);
const final = await graph.invoke(
  { task: positionals.join(" ") || "Describe the project.", workspace },
  { configurable: { thread_id: `bare-${Date.now()}` }, recursionLimit: 1000 },
);
console.log(JSON.stringify({ status: final.status, agentRuns: final.agentRuns }));
process.exitCode = final.status === "done" ? 0 : 1;
