import { describe, expect, it } from "vitest";
import { markedStop } from "../../../src/agents/run.js";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, ofType, runToEnd, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "d.txt": "d\n" });

const coder = AGENT_SPECS.coder;
const read = (file: string) => calls({ name: "read_file", args: { path: file } });

describe("model-call limit (the run's maxModelCalls, checked before every model call)", () => {
  it("ends a run that keeps calling tools after maxModelCalls model calls", async () => {
    const models = scriptedModels({ coder: [read("a.txt"), read("b.txt"), read("c.txt"), read("d.txt")] });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 2 });
    expect(models.seen.coder).toHaveLength(2);
    expect(outcome.stopReason).toBe("call_limit");
    expect(outcome.modelCalls).toBe(2);
    expect(ofType(events, "model_call")).toHaveLength(2);
    // Both replies' tools ran before the limit ended the run.
    expect(toolMessages(final.messages).map((m) => m.status === "error")).toEqual([false, false]);
    expect(markedStop(final.messages.at(-1))).toEqual({ kind: "call_limit", detail: "2 model calls" });
    expect(coder.toReport(outcome, "s1").status).toBe("incomplete");
  });

  it("lets a run that finishes within the limit finish", async () => {
    const models = scriptedModels({ coder: [read("a.txt"), calls({ name: "submit_work", args: { status: "done", summary: "ok" } })] });
    const { outcome } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 2 });
    expect(outcome.stopReason).toBe("finished");
    expect(outcome.modelCalls).toBe(2);
  });

  it("takes the limit from each run, not from the compiled agent", async () => {
    const models = scriptedModels({ coder: [read("a.txt"), read("b.txt"), read("c.txt"), read("d.txt")] });
    const h = agentHarness(coder, models, { workspace: ws.root });
    const one = await h.startOn("run-1", 1);
    expect(h.outcome(one)).toMatchObject({ stopReason: "call_limit", modelCalls: 1 });
    const three = await h.startOn("run-3", 3);
    expect(h.outcome(three)).toMatchObject({ stopReason: "call_limit", modelCalls: 3 });
    expect(models.seen.coder).toHaveLength(4);
  });
});
