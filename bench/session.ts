import { DEFAULT_LIMITS, DEFAULT_SAFETY, silentSink } from "../src/core/index.js";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { compileGraph } from "../src/graph/build-graph.js";
import { memoryOff } from "../src/memory/types.js";
import { benchModels, type ScriptOptions } from "./scripted.js";

export interface StepTiming {
  node: string;
  ms: number;
}

export interface SessionResult {
  /** Wall time from the start of the stream to its end. */
  wallMs: number;
  /** One entry per superstep, in order: the node that ran and the time since the previous superstep ended. */
  steps: StepTiming[];
}

/** A fresh temp workspace (a tiny npm project); remove it with `removeWorkspace`. */
export async function makeWorkspace(prefix: string): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `mc-bench-${prefix}-`)));
  await fs.writeFile(path.join(root, "package.json"), '{"name":"bench-demo","type":"module","scripts":{"test":"vitest run"}}\n');
  return root;
}

export async function removeWorkspace(root: string): Promise<void> {
  await fs.rm(root, { recursive: true, force: true });
}

/**
 * Runs one whole session (planner → sub-agent → planner … → finish) with scripted instant models and
 * times every superstep through the `updates` stream (each superstep here runs exactly one node).
 */
export async function runSession(
  script: ScriptOptions,
  workspace: string,
  checkpointer: BaseCheckpointSaver | undefined,
  threadId: string,
): Promise<SessionResult> {
  const models = benchModels(script);
  const graph = compileGraph({ models, events: silentSink, memory: memoryOff }, checkpointer);
  const limits = { ...DEFAULT_LIMITS, maxPlanRevisions: script.runs + 5, maxAgentRuns: script.runs + 5 };
  const config = { configurable: { thread_id: threadId }, recursionLimit: script.runs * 2 + 20 };
  const steps: StepTiming[] = [];
  let status = "";
  let agentRuns = 0;

  const start = performance.now();
  let previous = start;
  const stream = await graph.stream(
    { task: "Add a --config option to every module and test it", workspace, limits, safety: { ...DEFAULT_SAFETY, approval: "auto" } },
    { ...config, streamMode: "updates" },
  );
  for await (const chunk of stream) {
    const now = performance.now();
    for (const [node, update] of Object.entries(chunk)) {
      steps.push({ node, ms: now - previous });
      if (update?.counters?.agentRuns !== undefined) agentRuns = update.counters.agentRuns;
      if (update?.status) status = update.status;
    }
    previous = now;
  }
  const wallMs = performance.now() - start;
  if (status !== "done" || agentRuns !== script.runs) {
    throw new Error(`bench session ended with status "${status}" after ${agentRuns} of ${script.runs} runs`);
  }
  return { wallMs, steps };
}

/** Counts the checkpoints a saver holds for one thread (all namespaces). */
export async function countCheckpoints(checkpointer: BaseCheckpointSaver, threadId: string): Promise<number> {
  let n = 0;
  for await (const _tuple of checkpointer.list({ configurable: { thread_id: threadId } })) n++;
  return n;
}
