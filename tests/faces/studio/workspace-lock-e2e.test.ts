import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder } from "../../../src/core/index.js";
import { DEFAULT_PRICE_TABLE } from "../../../src/models/cost/prices.js";
import { compileGraph } from "../../../src/graph/build-graph.js";
import { memoryOff } from "../../../src/memory/types.js";
import { WorkspaceLock } from "../../../src/sessions/workspace-lock.js";
import { wireGraphDeps } from "../../../src/host/graph-deps.js";
import { runCli, startCli } from "../cli/cli-process.js";
import { calls, finishPlan, plan, scriptedModels } from "../../graph/scripted-models.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

/**
 * Issue 38: a Studio run and a CLI session changed the same workspace at once. The Studio graph's steps now hold the
 * workspace lock the CLI and ACP hold (src/faces/studio/graph.ts wires holdWorkspace as below), so whichever face comes
 * second is refused with one clear error.
 */
let ws: TempWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
});

function studioGraph(models: ReturnType<typeof scriptedModels>) {
  const deps = wireGraphDeps({
    models,
    events: new EventRecorder(),
    memory: memoryOff,
    sandbox: { kind: "bubblewrap", reason: "tests" },
    prices: DEFAULT_PRICE_TABLE,
    holdWorkspace: (workspace, configurable) => WorkspaceLock.acquire(workspace, { force: configurable.force === true, flag: "force" }),
  });
  return compileGraph(deps, new MemorySaver());
}

const input = (root: string) => ({ task: "t", workspace: root, limits: DEFAULT_LIMITS, safety: { ...DEFAULT_SAFETY, approval: "auto" as const } });

describe("one session per workspace across the CLI and Studio", () => {
  it("a Studio run refuses, with one clear error, while a CLI session holds the workspace", async () => {
    ws = await makeTempWorkspace({ "a.txt": "a\n" });
    const graph = studioGraph(scriptedModels({ planner: [finishPlan("nothing")] }));
    const cli = WorkspaceLock.acquire(ws.root, { force: false, flag: "--force" });
    try {
      await expect(graph.invoke(input(ws.root), { configurable: { thread_id: "busy" } })).rejects.toThrow(
        /another session is running in this workspace \(process \d+\)/,
      );
    } finally {
      cli.release();
    }
    // Free again: the same run goes through, and leaves the workspace free.
    const final = await graph.invoke(input(ws.root), { configurable: { thread_id: "free" } });
    expect(final.status).toBe("done");
    expect(WorkspaceLock.holder(ws.root)).toBeNull();
  });

  it("a CLI run is refused (exit 1, as for another CLI session) while a Studio run's step runs there, and goes on once it ended", async () => {
    ws = await makeTempWorkspace({ "a.txt": "a\n" });
    const root = ws.root;
    const models = scriptedModels({
      planner: [plan([{ agent: "coder", goal: "wait, then write" }]), finishPlan("done"), finishPlan("done")],
      coder: [
        calls({ name: "execute_command", args: { command: "sleep 4; echo done > done.txt" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "waited" } }),
      ],
      reviewer: [calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } })],
    });
    const graph = studioGraph(models);
    const studioRun = graph.invoke(input(root), { configurable: { thread_id: "long" }, recursionLimit: 60 });
    // Once the coder's command runs, the coder's step holds the lock.
    for (let i = 0; i < 100 && (models.seen.coder?.length ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:9", MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_MODEL_RETRIES: "0" };
    const refused = await runCli(["run", "Change it too"], { cwd: root, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^mini-cursor: another session is running in this workspace \(process \d+\); wait for it to finish/),
    ]);
    const final = await studioRun;
    expect(final.status).toBe("done");
    expect(WorkspaceLock.holder(root)).toBeNull();
    // The lock is free for the CLI now (this run then stops on the unreachable model, not on the lock).
    const later = startCli(["run", "--json", "Change it too"], { cwd: root, env });
    const { code } = await later.done;
    expect(later.stderr()).not.toContain("another session is running");
    expect(code).not.toBe(2);
  });
});
