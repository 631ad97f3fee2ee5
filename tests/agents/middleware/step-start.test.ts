import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, say, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, humanMessages, ofType, runToEnd, text, toolMessages } from "./helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeTempWorkspace({ "a.txt": "original\n", "src/main.ts": "export {};\n", "AGENTS.md": "Always run the tests.\n" });
});
afterEach(async () => {
  await ws.cleanup();
});

const outlined = (m: { content: unknown }) => typeof m.content === "string" && m.content.includes("Workspace outline");

describe("step-start middleware", () => {
  it("announces the step once and hands the model the brief with the project context", async () => {
    const coder = AGENT_SPECS.coder;
    const models = scriptedModels({
      coder: [calls({ name: "read_file", args: { path: "a.txt" } }), calls({ name: "submit_work", args: { status: "done", summary: "ok" } })],
    });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, brief: "BRIEF: fix the thing" });
    expect(outcome.stopReason).toBe("finished");
    expect(ofType(events, "step_started")).toEqual([{ type: "step_started", stepId: "s1", agent: "coder", goal: "the goal" }]);
    const humans = humanMessages(final.messages);
    expect(humans).toHaveLength(1);
    const brief = text(humans[0]);
    expect(brief.startsWith("BRIEF: fix the thing\n\nWorkspace outline (top two levels):")).toBe(true);
    expect(brief).toMatch(/^src\/$/m);
    expect(brief).toMatch(/^ {2}main\.ts$/m);
    expect(brief).toMatch(/^a\.txt$/m);
    expect(brief).toContain("Project rules from AGENTS.md (follow them):\nAlways run the tests.");
    // The first prompt is the system prompt then that brief.
    const first = models.seen.coder?.[0] ?? [];
    expect(first.map((m) => m.getType())).toEqual(["system", "human"]);
    expect(text(first[1])).toBe(brief);
  });

  it("is not repeated when a run paused for approval is resumed on the same thread", async () => {
    const coder = AGENT_SPECS.coder;
    const models = scriptedModels({
      coder: [
        calls({ name: "execute_command", args: { command: "touch made-by-command" } }),
        calls({ name: "submit_work", args: { status: "done", summary: "ran it" } }),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    const paused = await h.start();
    expect(paused.__interrupt__).toHaveLength(1);
    expect(await h.pending()).toHaveLength(1);
    await expect(fs.access(path.join(ws.root, "made-by-command"))).rejects.toThrow();
    expect(ofType(h.events, "step_started")).toHaveLength(1);

    // A file appearing while paused would show up in a recomputed outline.
    await fs.writeFile(path.join(ws.root, "added-while-paused.txt"), "x\n");
    const final = await h.resume({ decision: "approve" });
    expect(final.__interrupt__).toBeUndefined();
    expect(h.outcome(final).stopReason).toBe("finished");
    await expect(fs.access(path.join(ws.root, "made-by-command"))).resolves.toBeUndefined();
    expect(toolMessages(final.messages)[0]?.status).toBe("success");

    expect(ofType(h.events, "step_started")).toHaveLength(1);
    expect(humanMessages(final.messages).filter(outlined)).toHaveLength(1);
    expect(final.messages.filter(outlined)).toHaveLength(1);
    expect(final.messages.some((m) => text(m).includes("added-while-paused.txt"))).toBe(false);
    // Every prompt the model saw carried the brief exactly once.
    for (const prompt of models.seen.coder ?? []) expect(prompt.filter(outlined)).toHaveLength(1);
    expect(models.seen.coder).toHaveLength(2);
  });

  it("starts with the brief alone when the workspace is empty", async () => {
    const empty = await makeTempWorkspace();
    try {
      const models = scriptedModels({ coder: [say("nothing to do")] });
      const { final } = await runToEnd(AGENT_SPECS.coder, models, { workspace: empty.root, brief: "B" });
      expect(text(humanMessages(final.messages)[0])).toBe("B\n\nWorkspace outline (top two levels):\n(empty)");
    } finally {
      await empty.cleanup();
    }
  });
});
