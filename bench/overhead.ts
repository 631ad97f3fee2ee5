import { performance } from "node:perf_hooks";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { AGENT_SPECS } from "../src/agents/index.js";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { buildAgent } from "../src/agents/build-agent.js";
import { DEFAULT_PRICE_TABLE } from "../src/models/cost/prices.js";
import { memoryOff } from "../src/memory/types.js";
import { DEFAULT_SAFETY, usageBaseSchema } from "../src/core/index.js";
import { benchModels } from "./scripted.js";
import { openSessionDatabase } from "../src/sessions/database.js";
import { countCheckpoints, makeWorkspace, removeWorkspace, runSession, type StepTiming } from "./session.js";
import { mean, median, ms, p95, printTable, ratio } from "./stats.js";

/**
 * Benchmark 1: orchestration overhead per graph superstep. The models answer instantly and every
 * sub-agent calls its finish tool at once, so what is left is LangGraph, our nodes and checkpointing.
 */

type SaverKind = "none" | "memory" | "sqlite";
const KINDS: readonly SaverKind[] = ["none", "memory", "sqlite"];
const LABEL: Record<SaverKind, string> = {
  none: "no checkpointer",
  memory: "MemorySaver (in-process)",
  sqlite: "SqliteSaver (file, WAL)",
};

interface Sample {
  steps: StepTiming[];
  wallMs: number;
  checkpoints: number;
}

async function runOnce(kind: SaverKind, runs: number, tag: string): Promise<Sample> {
  const workspace = await makeWorkspace(`overhead-${kind}`);
  const database = kind === "sqlite" ? openSessionDatabase(workspace, { now: () => Date.now() }) : null;
  try {
    const saver: BaseCheckpointSaver | undefined = kind === "memory" ? new MemorySaver() : (database?.checkpointer ?? undefined);
    const threadId = `bench-${tag}`;
    const result = await runSession({ runs, agentFor: () => "researcher", realistic: false }, workspace, saver, threadId);
    const checkpoints = saver ? await countCheckpoints(saver, threadId) : 0;
    return { steps: result.steps, wallMs: result.wallMs, checkpoints };
  } finally {
    database?.close();
    await removeWorkspace(workspace);
  }
}

export async function benchOverhead(runs: number, repeats: number): Promise<void> {
  // Warm up the JIT and module caches on every path before measuring.
  for (const kind of KINDS) await runOnce(kind, 30, `warmup-${kind}`);

  const samples: Record<SaverKind, Sample[]> = { none: [], memory: [], sqlite: [] };
  for (let r = 0; r < repeats; r++) {
    for (const kind of KINDS) samples[kind].push(await runOnce(kind, runs, `${kind}-${r}`));
  }

  const pooled = (kind: SaverKind) => samples[kind].flatMap((s) => s.steps.map((t) => t.ms));
  const supersteps = samples.none[0]?.steps.length ?? 0;
  const window = Math.min(40, Math.floor(supersteps / 4));
  const rows = KINDS.map((kind) => {
    const all = pooled(kind);
    const early = samples[kind].flatMap((s) => s.steps.slice(0, window).map((t) => t.ms));
    const late = samples[kind].flatMap((s) => s.steps.slice(-window).map((t) => t.ms));
    const wall = mean(samples[kind].map((s) => s.wallMs));
    const checkpoints = samples[kind][0]?.checkpoints ?? 0;
    return [
      LABEL[kind],
      String(supersteps),
      kind === "none" ? "-" : String(checkpoints),
      ms(wall, 1),
      ms(wall / supersteps),
      ms(median(all)),
      ms(p95(all)),
      ms(median(early)),
      ms(median(late)),
    ];
  });
  printTable(
    `1. Orchestration overhead per superstep — ${runs} instant researcher runs per session (${supersteps} supersteps: planner ×${runs + 1}, researcher ×${runs}, finish ×1), ${repeats} sessions per column, pooled`,
    ["checkpointer", "supersteps", "checkpoints", "wall/session", "mean/step", "median/step", "p95/step", `median first ${window}`, `median last ${window}`],
    rows,
  );

  const ratios = (["memory", "sqlite"] as const).map((kind) => [
    `${LABEL[kind]} ÷ none`,
    ratio(median(pooled(kind)) / median(pooled("none"))),
    ratio(p95(pooled(kind)) / p95(pooled("none"))),
    ratio(mean(samples[kind].map((s) => s.wallMs)) / mean(samples.none.map((s) => s.wallMs))),
    ms(median(pooled(kind)) - median(pooled("none"))),
  ]);
  printTable("   Ratios against no checkpointer", ["", "median", "p95", "wall", "added median ms/step"], ratios);

  const byNode = ["planner", "researcher", "finish"].map((node) => {
    const cells = KINDS.map((kind) => {
      const times = samples[kind].flatMap((s) => s.steps.filter((t) => t.node === node).map((t) => t.ms));
      return `${ms(median(times))} / ${ms(p95(times))}`;
    });
    return [node, ...cells];
  });
  printTable("   Per node (median / p95 per superstep)", ["node", ...KINDS.map((k) => LABEL[k])], byNode);
}

/**
 * Where a sub-agent superstep's time goes: compiling its agent (now done once, when the graph is built) and running
 * the compiled agent once with an instant model.
 */
export async function benchSubAgentParts(iterations: number): Promise<void> {
  const workspace = await makeWorkspace("parts");
  try {
    const spec = AGENT_SPECS.researcher;
    const models = benchModels({ runs: iterations * 3, agentFor: () => "researcher", realistic: false });
    const deps = { spec, models, emit: () => undefined, memory: memoryOff, forceAsk: false, prices: DEFAULT_PRICE_TABLE, budget: {}, callTimeoutMs: 60_000 };
    const tools = spec.tools.filter((t) => t !== "memory_search");
    const agent = buildAgent(deps);
    const runOnce = () =>
      agent.invoke(
        {
          messages: [
            new SystemMessage(spec.systemPrompt(workspace, [...tools, spec.finishTool.name])),
            new HumanMessage({ id: "brief-s1", content: "Task: bench\nYour step (s1): look around." }),
          ],
        },
        {
          context: {
            workspace,
            stepId: "s1",
            safety: { ...DEFAULT_SAFETY, approval: "auto" as const },
            maxModelCalls: 30,
            maxPromptTokens: 32_000,
            usageBase: usageBaseSchema.parse({}),
            questions: { asked: 0, max: 3 },
            budget: {},
          },
        },
      );
    const time = async (fn: () => unknown): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const t = performance.now();
        await fn();
        out.push(performance.now() - t);
      }
      return out;
    };
    // Warm-up round, then the measured rounds.
    await time(runOnce);
    const compile = await time(() => buildAgent(deps));
    const run = await time(runOnce);
    printTable(
      `   Inside one researcher superstep (${iterations} iterations each, instant model)`,
      ["part", "median", "p95"],
      [
        ["compile its agent (once per graph, not per run)", ms(median(compile), 3), ms(p95(compile), 3)],
        ["one run of the compiled agent (1 model call, finish)", ms(median(run), 3), ms(p95(run), 3)],
      ],
    );
  } finally {
    await removeWorkspace(workspace);
  }
}
