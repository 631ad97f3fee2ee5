import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { evaluateCommand } from "../../../src/safety/command-rules.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness } from "../agent-harness.js";

/**
 * Issue 37: one decision per tool call, bound to the call and checked on what actually lands. The swaps here happen
 * at fixed points (while the person reads the prompt, or between the decision and the write); the race test with a
 * real concurrent swapper is tests/agents/middleware/approval-race-e2e.test.ts.
 */
const ws = useTempWorkspace({ ".git/config": "[core]\n", ".git/hooks/README": "hooks\n", "src/a.ts": "a\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
describe("rules are consulted once per command call", () => {
  it("evaluates an approved command once, however often the step runs again", async () => {
    let evaluations = 0;
    const counting: typeof evaluateCommand = (command, ctx) => {
      evaluations += 1;
      return evaluateCommand(command, ctx);
    };
    const models = scriptedModels({
      coder: [calls({ name: "execute_command", args: { command: "touch one.txt" } }, { name: "execute_command", args: { command: "touch two.txt" } }), done()],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" }, deps: { commandRules: counting } });
    await h.start();
    await h.resume({ decision: "approve" });
    const final = await h.resume({ decision: "approve" });
    expect(h.outcome(final).stopReason).toBe("finished");
    expect(await ws.exists("one.txt")).toBe(true);
    expect(await ws.exists("two.txt")).toBe(true);
    // Two commands, three runs of the tools step (two pauses): one evaluation each.
    expect(evaluations).toBe(2);
  });
});
