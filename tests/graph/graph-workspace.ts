import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach } from "vitest";
import { testGraph } from "./wire.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder, type Limits } from "../../src/core/index.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { scriptedModels, type Reply } from "./scripted-models.js";

/** The calling file's workspace: a fresh folder with a package.json for each test, removed after it. */
export let root = "";

/** Registers the workspace's set-up and clean-up in the calling test file (call it once, at its top level). */
export function useGraphWorkspace(): void {
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-graph-")));
    await fs.writeFile(path.join(root, "package.json"), '{"name":"demo","type":"module"}\n');
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });
}

/** Runs the session graph on the workspace to its end with scripted replies per agent, approvals on auto. */
export async function runGraph(script: Partial<Record<"planner" | "researcher" | "coder" | "reviewer", Reply[]>>, limits: Partial<Limits> = {}) {
  const models = scriptedModels(script);
  const events = new EventRecorder();
  const graph = testGraph({ models, events, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t1" }, recursionLimit: 100 };
  await graph.invoke(
    { task: "add a sum module with a test", workspace: root, limits: { ...DEFAULT_LIMITS, ...limits }, safety: { ...DEFAULT_SAFETY, approval: "auto" } },
    config,
  );
  const state = (await graph.getState(config)).values as WorkspaceStateValue;
  return { state, events, seen: models.seen };
}
