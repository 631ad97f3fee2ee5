import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, say, scriptedModels } from "../../graph/scripted-models.js";
import { humanMessages, runToEnd, text } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const REMINDER = "You must end by calling the submit_review tool with your structured result. Call it now.";
const reminders = (messages: { content: unknown }[]) => messages.filter((m) => m.content === REMINDER);

describe("finish-reminder middleware", () => {
  it("reminds a reviewer that answers in prose once, then takes its submit_review call", async () => {
    const models = scriptedModels({
      reviewer: [say("Looks good to me."), calls({ name: "submit_review", args: { decision: "approve", summary: "tests pass" } })],
    });
    const { final, outcome } = await runToEnd(AGENT_SPECS.reviewer, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    expect(outcome.finish).toEqual({ decision: "approve", summary: "tests pass" });
    expect(final.nudged).toBe(true);
    // The brief, then the reminder.
    const humans = humanMessages(final.messages);
    expect(humans).toHaveLength(2);
    expect(text(humans[1])).toBe(REMINDER);
    // The second prompt ends with the prose answer and the reminder.
    const second = models.seen.reviewer?.[1] ?? [];
    expect(text(second.at(-2))).toBe("Looks good to me.");
    expect(text(second.at(-1))).toBe(REMINDER);
    expect(AGENT_SPECS.reviewer.toReport(outcome, "s1").review?.decision).toBe("approve");
  });

  it("ends the run on a second prose answer, with no second reminder", async () => {
    const models = scriptedModels({
      reviewer: [say("Looks good."), say("Really, it looks good."), calls({ name: "submit_review", args: { decision: "approve", summary: "never asked" } })],
    });
    const { final, outcome } = await runToEnd(AGENT_SPECS.reviewer, models, { workspace: ws.root, maxModelCalls: 10 });
    expect(outcome.stopReason).toBe("text");
    expect(outcome.lastText).toBe("Really, it looks good.");
    expect(outcome.finish).toBeNull();
    expect(reminders(final.messages)).toHaveLength(1);
    expect(models.seen.reviewer).toHaveLength(2);
    expect(AGENT_SPECS.reviewer.toReport(outcome, "s1").status).toBe("incomplete");
  });

  it("does not remind after tool calls, only after a prose answer", async () => {
    const models = scriptedModels({
      reviewer: [
        calls({ name: "read_file", args: { path: "a.txt" } }),
        say("Fine."),
        calls({ name: "submit_review", args: { decision: "approve", summary: "ok" } }),
      ],
    });
    const { final, outcome } = await runToEnd(AGENT_SPECS.reviewer, models, { workspace: ws.root });
    expect(outcome.stopReason).toBe("finished");
    expect(reminders(final.messages)).toHaveLength(1);
    expect(text(models.seen.reviewer?.[1]?.at(-1))).toContain("original");
  });

  it("gives the coder, whose prose ending is accepted, no reminder", async () => {
    const models = scriptedModels({
      coder: [say("Changed nothing; it already works."), calls({ name: "submit_work", args: { status: "done", summary: "never asked" } })],
    });
    const { final, outcome } = await runToEnd(AGENT_SPECS.coder, models, { workspace: ws.root });
    expect(AGENT_SPECS.coder.requireFinishTool).toBe(false);
    expect(outcome.stopReason).toBe("text");
    expect(outcome.lastText).toBe("Changed nothing; it already works.");
    expect(final.nudged).toBe(false);
    expect(
      humanMessages(final.messages)
        .map(text)
        .filter((t) => t === REMINDER),
    ).toEqual([]);
    expect(models.seen.coder).toHaveLength(1);
  });
});
