import fs from "node:fs/promises";
import path from "node:path";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, silentSink } from "../src/core/index.js";
import { compileGraph } from "../src/graph/build-graph.js";
import { memoryOff } from "../src/memory/types.js";
import type { ModelProvider } from "../src/models/chat-model.js";
import { openSessionDatabase } from "../src/sessions/database.js";
import { databasePath } from "../src/sessions/paths.js";
import { makeWorkspace, removeWorkspace } from "./session.js";
import { bytes, printTable, ratio } from "./stats.js";

/**
 * Checkpoint bytes per tool call inside ONE long sub-agent run (issue 11): a researcher reads 200 distinct files of
 * about 1.2 KB each, through the real session graph with instant scripted models and SqliteSaver on a file. Runs of
 * 50, 100 and 200 calls are separate sessions; the marginal bytes per call between them show whether a step's cost
 * grows with the run (each result has to be stored once: about 1.2 KB of the 10 KB target).
 */

const TARGET_PER_CALL = 10 * 1024;
const TARGET_RATIO = 1.1;

function fileText(i: number): string {
  const line = (k: number) => `export const value${i}_${k} = "${"abcdefghij".repeat(4)}-${i}-${k}"; // line ${k} of file ${i}\n`;
  let text = "";
  for (let k = 0; text.length < 1200; k++) text += line(k);
  return text.slice(0, 1200);
}

let ids = 0;
function call(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: [{ name, args, id: `cpc_${++ids}`, type: "tool_call" }],
    usage_metadata: { input_tokens: 1200, output_tokens: 40, total_tokens: 1240 },
  });
}

/** The planner routes one researcher step, then finishes; the researcher reads `calls` files, then reports. */
function models(calls: number): ModelProvider {
  let plannerTurns = 0;
  return {
    forRole(role) {
      if (role === "planner") {
        return fakeModel().respond(() =>
          plannerTurns++ === 0
            ? call("update_plan", {
                remainingSteps: [{ agent: "researcher", goal: "Read every file under src/ and report.", acceptanceCriteria: [] }],
                finished: false,
              })
            : call("update_plan", { remainingSteps: [], finished: true, outcome: "done", summary: "Read them all." }),
        );
      }
      return fakeModel().respond((messages: BaseMessage[]) => {
        const replied = messages.filter((m) => m.getType() === "ai").length;
        return replied < calls
          ? call("read_file", { path: `src/file-${replied}.ts` })
          : call("submit_findings", { summary: `Read ${calls} files.`, findings: [] });
      });
    },
    describe: (role) => `bench-${role}`,
  };
}

interface Row {
  table: string;
  rows: number;
  bytes: number;
}

interface Sample {
  calls: number;
  fileBytes: number;
  total: number;
  breakdown: Row[];
}

async function fileSize(file: string): Promise<number> {
  return fs.stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

async function measure(calls: number): Promise<Sample> {
  const workspace = await makeWorkspace(`cpc-${calls}`);
  await fs.mkdir(path.join(workspace, "src"));
  for (let i = 0; i < calls; i++) await fs.writeFile(path.join(workspace, "src", `file-${i}.ts`), fileText(i));
  const database = openSessionDatabase(workspace, { now: () => Date.now() });
  try {
    const graph = compileGraph({ models: models(calls), events: silentSink, memory: memoryOff }, database.checkpointer);
    // A context budget large enough that the prompt is never trimmed: the bench measures storage, not fitting.
    const limits = { ...DEFAULT_LIMITS, maxModelCallsPerRun: calls + 10, maxPromptTokens: 1_000_000 };
    const config = { configurable: { thread_id: `cpc-${calls}` }, recursionLimit: 100 };
    const final = await graph.invoke({ task: "Read the sources", workspace, limits, safety: { ...DEFAULT_SAFETY, approval: "auto" } }, config);
    if (final.status !== "done") throw new Error(`checkpoint-per-call bench session ended with status "${final.status}"`);
    const { db } = database;
    const breakdown: Row[] = [];
    const add = (table: string, sql: string) => {
      for (const r of db.prepare(sql).all() as { k: string; n: number; b: number }[]) breakdown.push({ table: `${table} ${r.k}`, rows: r.n, bytes: r.b });
    };
    const ns = "CASE WHEN checkpoint_ns = '' THEN 'session' ELSE 'sub-agent' END";
    add("checkpoint blobs", `SELECT ${ns} AS k, count(*) AS n, sum(length(checkpoint)) AS b FROM checkpoints GROUP BY k`);
    add("metadata", `SELECT ${ns} AS k, count(*) AS n, sum(length(metadata)) AS b FROM checkpoints GROUP BY k`);
    add("writes", `SELECT ${ns} || ' ' || channel AS k, count(*) AS n, sum(length(value)) AS b FROM writes GROUP BY k`);
    // What the sub-agent's checkpoint blobs hold: each channel's stored value, plus the version maps.
    const blobs = db.prepare("SELECT checkpoint FROM checkpoints WHERE checkpoint_ns <> ''").all() as { checkpoint: Buffer }[];
    const parts = new Map<string, number>();
    for (const { checkpoint } of blobs) {
      const parsed = JSON.parse(checkpoint.toString("utf8")) as Record<string, unknown> & { channel_values?: Record<string, unknown> };
      for (const [key, value] of Object.entries(parsed)) {
        if (key === "channel_values") continue;
        parts.set(key, (parts.get(key) ?? 0) + JSON.stringify(value ?? null).length);
      }
      for (const [channel, value] of Object.entries(parsed.channel_values ?? {})) {
        parts.set(`channel_values.${channel}`, (parts.get(`channel_values.${channel}`) ?? 0) + JSON.stringify(value ?? null).length);
      }
    }
    const total = breakdown.reduce((sum, r) => sum + r.bytes, 0);
    db.pragma("wal_checkpoint(TRUNCATE)");
    const dbFile = databasePath(workspace);
    const fileBytes = (await fileSize(dbFile)) + (await fileSize(`${dbFile}-wal`));
    // The file by SQLite table and index (dbstat): page bytes, of which payload; the rest is keys, headers and free space.
    const pages = db.prepare("SELECT name AS k, count(*) AS n, sum(pgsize) AS b, sum(payload) AS p FROM dbstat GROUP BY name ORDER BY b DESC").all() as {
      k: string;
      n: number;
      b: number;
      p: number;
    }[];
    const file = pages
      .filter((r) => r.b >= 8192)
      .flatMap((r) => [
        { table: `  (DB file) ${r.k}: pages`, rows: r.n, bytes: r.b },
        { table: `  (DB file) ${r.k}: payload`, rows: r.n, bytes: r.p },
      ]);
    const inside = [...parts].sort((a, b) => b[1] - a[1]).map(([k, b]) => ({ table: `  (inside sub-agent blobs) ${k}`, rows: blobs.length, bytes: b }));
    return { calls, fileBytes, total, breakdown: [...breakdown.sort((a, b) => b.bytes - a.bytes), ...inside, ...file] };
  } finally {
    database.close();
    await removeWorkspace(workspace);
  }
}

export async function benchCheckpointPerCall(points: readonly [number, number, number] = [50, 100, 200]): Promise<void> {
  const samples: Sample[] = [];
  for (const calls of points) samples.push(await measure(calls));
  const [a, b, c] = samples as [Sample, Sample, Sample];
  printTable(
    `2b. Checkpoint bytes per tool call — one researcher run of N read_file calls (~1.2 KB results), session graph, SqliteSaver on a file (target ≤ ${bytes(TARGET_PER_CALL)}/call at ${c.calls})`,
    ["calls", "Σ blobs+metadata+writes", "per call", "DB file after wal_checkpoint(TRUNCATE)", "DB per call"],
    samples.map((s) => [String(s.calls), bytes(s.total), bytes(s.total / s.calls), bytes(s.fileBytes), bytes(s.fileBytes / s.calls)]),
  );
  const marginal = (pick: (s: Sample) => number) => {
    const first = (pick(b) - pick(a)) / (b.calls - a.calls);
    const second = (pick(c) - pick(b)) / (c.calls - b.calls);
    return [bytes(first), bytes(second), ratio(second / first)];
  };
  printTable(
    `   Marginal bytes per call (flat: ratio ≤ ${TARGET_RATIO}×)`,
    ["measure", `${a.calls}→${b.calls}`, `${b.calls}→${c.calls}`, "ratio"],
    [
      ["Σ blobs+metadata+writes", ...marginal((s) => s.total)],
      ["DB file", ...marginal((s) => s.fileBytes)],
    ],
  );
  const keys = [...new Set(samples.flatMap((s) => s.breakdown.map((r) => r.table)))];
  const cell = (s: Sample, k: string) => s.breakdown.find((r) => r.table === k);
  printTable(
    "   Where the bytes are (rows, Σ bytes; per call at the longest run)",
    ["table / channel", ...samples.map((s) => `${s.calls} calls`), `per call at ${c.calls}`],
    keys
      .filter((k) => samples.some((s) => (cell(s, k)?.bytes ?? 0) >= 512))
      .map((k) => [
        k,
        ...samples.map((s) => {
          const r = cell(s, k);
          return r ? `${r.rows} / ${bytes(r.bytes)}` : "-";
        }),
        bytes((cell(c, k)?.bytes ?? 0) / c.calls),
      ]),
  );
  const perCall = c.total / c.calls;
  const flat = (c.total - b.total) / (c.calls - b.calls) / ((b.total - a.total) / (b.calls - a.calls));
  console.log(
    `   Verdict: ${bytes(perCall)} per call at ${c.calls} (target ≤ ${bytes(TARGET_PER_CALL)}: ${perCall <= TARGET_PER_CALL ? "met" : "NOT met"}); marginal ratio ${ratio(flat)} (target ≤ ${TARGET_RATIO}×: ${flat <= TARGET_RATIO ? "met" : "NOT met"})`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) await benchCheckpointPerCall();
