import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countTokens } from "../../src/agents/middleware/context-budget.js";
import { testGraph } from "./wire.js";
import { DEFAULT_LIMITS, DEFAULT_SAFETY, EventRecorder, type Limits } from "../../src/core/index.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { calls, finishPlan, plan, scriptedModels, type Reply } from "./scripted-models.js";

let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mc-budget-")));
  for (let i = 0; i < 24; i++) await fs.writeFile(path.join(root, `file${i}.txt`), `line ${i}\n`.repeat(400));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function run(script: Partial<Record<"planner" | "researcher" | "coder" | "reviewer", Reply[]>>, limits: Partial<Limits>) {
  const models = scriptedModels(script);
  const events = new EventRecorder();
  const graph = testGraph({ models, events, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t" }, recursionLimit: 200 };
  await graph.invoke(
    { task: "read everything", workspace: root, limits: { ...DEFAULT_LIMITS, ...limits }, safety: { ...DEFAULT_SAFETY, approval: "auto" } },
    config,
  );
  return { state: (await graph.getState(config)).values as WorkspaceStateValue, seen: models.seen, events: events.events };
}

describe("bounded context and loop detection in the real graph", () => {
  it("keeps every prompt of a long sub-agent run under the budget", async () => {
    const reads = Array.from({ length: 24 }, (_, i) => calls({ name: "read_file", args: { path: `file${i}.txt` } }));
    const budget = 6_000;
    const { state, seen, events } = await run(
      {
        planner: [plan([{ agent: "researcher", goal: "Read every file" }]), finishPlan("read")],
        researcher: [...reads, calls({ name: "submit_findings", args: { summary: "all read", findings: [] } })],
      },
      { maxPromptTokens: budget, maxModelCallsPerRun: 30 },
    );
    expect(state.plan[0]?.status).toBe("done");
    const prompts = seen.researcher ?? [];
    expect(prompts).toHaveLength(25);
    const sizes = prompts.map((messages: BaseMessage[]) => countTokens(messages));
    // Without the budget the last prompt would hold all 24 files (about 24 × 1,300 tokens).
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    expect(sizes.at(-1)).toBeLessThan(budget);
    // The newest result is always there in full.
    const last = prompts.at(-1) ?? [];
    const newest = last.filter((m) => ToolMessage.isInstance(m)).at(-1);
    expect(String(newest?.content)).toContain("line 23");
    expect(events.some((e) => e.type === "notice" && e.message.includes("to keep prompts under 6000 tokens"))).toBe(true);
  });

  it("stops a run that repeats the same call, after telling the agent once, and lets the planner decide", async () => {
    const same = () => calls({ name: "read_file", args: { path: "file1.txt" } });
    const { state, seen, events } = await run(
      {
        planner: [plan([{ agent: "researcher", goal: "Read file1" }]), finishPlan("gave up", "failed")],
        researcher: [same(), same(), same()],
      },
      {},
    );
    const researcher = seen.researcher ?? [];
    expect(researcher).toHaveLength(3);
    const results = (researcher[2] ?? []).filter((m) => ToolMessage.isInstance(m)).map((m) => String(m.content));
    expect(results[1]).toMatch(/you already made this exact read_file call/);
    expect(state.plan[0]).toMatchObject({ status: "failed" });
    expect(state.plan[0]?.result).toMatch(/Stopped: repeated read_file with the same arguments 3 times/);
    expect(events.some((e) => e.type === "limit_reached" && e.limit === "loop")).toBe(true);
    // The planner got the report and decided.
    expect(String(seen.planner?.[1]?.[1]?.content)).toContain("Latest report (s1, researcher, incomplete)");
  });
});
