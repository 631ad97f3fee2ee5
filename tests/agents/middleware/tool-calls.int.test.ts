import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { ofType, runToEnd, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });

describe("tool-calls middleware", () => {
  it("emits tool_call and tool_result events with the right ok, and keeps each result's artifact", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "read_file", args: { path: "a.txt" } }),
        calls({ name: "read_file", args: { path: "missing.txt" } }),
        calls({ name: "execute_command", args: { command: "exit 3" } }),
        calls({ name: "write_file", args: { path: "b.txt", content: "new\n" } }),
        done(),
      ],
    });
    const { final, outcome, events } = await runToEnd(coder, models, { workspace: ws.root, maxModelCalls: 10 });
    expect(outcome.stopReason).toBe("finished");
    expect(ofType(events, "tool_call").map((e) => [e.tool, e.detail])).toEqual([
      ["read_file", "a.txt"],
      ["read_file", "missing.txt"],
      ["execute_command", "exit 3"],
      ["write_file", "b.txt"],
    ]);
    const results = ofType(events, "tool_result");
    expect(results.map((e) => [e.tool, e.ok])).toEqual([
      ["read_file", true],
      ["read_file", false],
      ["execute_command", false],
      ["write_file", true],
    ]);
    expect(results.every((e) => e.agent === "coder" && e.stepId === "s1" && e.detail.length > 0)).toBe(true);
    expect(toolMessages(final.messages).map((m) => m.status === "error")).toEqual([false, true, true, false, false]);
    expect(outcome.commands).toEqual([{ command: "exit 3", cwd: ".", exitCode: 3, timedOut: false }]);
    expect(outcome.filesChanged).toEqual(["b.txt"]);
  });
});
