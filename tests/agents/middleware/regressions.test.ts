import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countTokens, toolsOverhead } from "../../../src/agents/middleware/context-budget.js";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { declaredTools } from "../../../src/agents/middleware/tool-calls.js";
import { createFinishTool } from "../../../src/agents/agent-tools.js";
import { offeredTools } from "../../../src/agents/agent-tools.js";
import type { ToolName } from "../../../src/tools/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, say, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd } from "../agent-harness.js";

let ws: TempWorkspace;
beforeEach(async () => {
  const files: Record<string, string> = { "a.txt": "a\n" };
  for (let i = 0; i < 6; i++) files[`big${i}.txt`] = Array.from({ length: 400 }, (_, n) => `big${i} line ${n} ${"abcdefghij".repeat(3)}`).join("\n");
  ws = await makeTempWorkspace(files);
});
afterEach(async () => {
  await ws.cleanup();
});

const reviewer = AGENT_SPECS.reviewer;
const submit = () => calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } });

describe("the finish reminder respects the call limit and the budget", () => {
  it("maxModelCalls 1: a prose answer must not buy a second model call", async () => {
    const models = scriptedModels({ reviewer: [say("Looks fine."), submit()] });
    const { outcome } = await runToEnd(reviewer, models, { workspace: ws.root, maxModelCalls: 1 });
    expect(models.seen.reviewer).toHaveLength(1);
    expect(outcome.modelCalls).toBe(1);
  });

  it("maxModelCalls 2 with a tool call first: at most 2 model calls", async () => {
    const models = scriptedModels({
      reviewer: [calls({ name: "read_file", args: { path: "a.txt" } }), say("Looks fine."), calls({ name: "read_file", args: { path: "big0.txt" } }), submit()],
    });
    const { outcome } = await runToEnd(reviewer, models, { workspace: ws.root, maxModelCalls: 2 });
    expect(outcome.modelCalls).toBeLessThanOrEqual(2);
  });

  it("a spent token budget stops the run before the reminder's model call", async () => {
    const models = scriptedModels({ reviewer: [say("Looks fine."), submit()] });
    const { outcome, events } = await runToEnd(reviewer, models, {
      workspace: ws.root,
      budget: { tokens: 100 },
      usageBase: { "reviewer:fake-reviewer": { inputTokens: 60, cachedInputTokens: 0, outputTokens: 0, calls: 1, estimatedCalls: 0 } },
    });
    // After the first call the session has used 115 >= 100 tokens.
    expect(ofType(events, "model_call")).toHaveLength(1);
    expect(outcome.stopReason).toBe("budget");
  });
});

describe("one reply with several large tool outputs still fits the prompt budget", () => {
  it("keeps the prompt after a six-read reply under the budget", async () => {
    const coder = AGENT_SPECS.coder;
    const overhead = toolsOverhead([
      ...declaredTools(offeredTools(coder, { approval: "auto" }, { memory: false }) as ToolName[]),
      createFinishTool(coder.finishTool),
    ]);
    const models = scriptedModels({
      coder: [calls(...Array.from({ length: 6 }, (_, i) => ({ name: "read_file", args: { path: `big${i}.txt` } }))), say("done")],
    });
    await runToEnd(coder, models, { workspace: ws.root, maxPromptTokens: 6_000 });
    for (const prompt of models.seen.coder ?? []) expect(countTokens(prompt) + overhead).toBeLessThanOrEqual(6_000);
  });
});

describe("a valid finish call ends the run even when it is not the reply's last call", () => {
  it("ends the run on submit_work even when another call follows it in the same reply", async () => {
    const coder = AGENT_SPECS.coder;
    const models = scriptedModels({
      coder: [calls({ name: "submit_work", args: { status: "done", summary: "x" } }, { name: "read_file", args: { path: "a.txt" } }), say("extra call")],
    });
    await runToEnd(coder, models, { workspace: ws.root });
    expect(models.seen.coder).toHaveLength(1);
  });
});
