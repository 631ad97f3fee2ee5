import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, text, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });
const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });

describe("ask_user in a sub-agent", () => {
  it("pauses with a question before any tool of the reply runs; the answer comes back as the tool result", async () => {
    const models = scriptedModels({
      coder: [
        calls(
          { name: "execute_command", args: { command: "echo ran >> ran.txt" } },
          { name: "ask_user", args: { question: "Which one?", choices: ["a", "b"] } },
        ),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toEqual({ type: "question", agent: "coder", stepId: "s1", question: "Which one?", choices: ["a", "b"] });
    expect(await ws.exists("ran.txt")).toBe(false);
    const final = await h.resume({ answer: "b" });
    const results = toolMessages(final.messages);
    expect(results.map((m) => [m.name, text(m)])).toEqual([
      ["execute_command", expect.stringContaining("Exit code: 0") as unknown],
      ["ask_user", "The person answered: b"],
      ["submit_work", "Recorded. Your run is complete."],
    ]);
    // The command ran once, after the answer; the model was called once before the question and once after.
    expect(await ws.read("ran.txt")).toBe("ran\n");
    expect(models.seen.coder).toHaveLength(2);
    expect(final.answers).toEqual({ [results[1]?.tool_call_id ?? ""]: "b" });
  });
});

describe("the turn's limit of questions in a sub-agent", () => {
  it("asks up to the limit; a question past it is not asked and the model is told to decide itself", async () => {
    const q = (n: number) => calls({ name: "ask_user", args: { question: `Question ${n}?` } });
    const models = scriptedModels({ coder: [q(1), q(2), q(3), q(4), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, maxModelCalls: 10 });
    let result = await h.start();
    const asked: string[] = [];
    for (let i = 0; i < 5 && result.__interrupt__; i++) {
      asked.push((result.__interrupt__[0]?.value as { question: string }).question);
      result = await h.resume({ answer: `answer ${i + 1}` });
    }
    expect(asked).toEqual(["Question 1?", "Question 2?", "Question 3?"]);
    const results = toolMessages(result.messages).filter((m) => m.name === "ask_user");
    expect(results.map((m) => text(m))).toEqual([
      "The person answered: answer 1",
      "The person answered: answer 2",
      "The person answered: answer 3",
      "Error: the limit of 3 questions per turn is reached, so this question was not asked. Decide yourself, and say in your result what you assumed.",
    ]);
    expect(results[3]?.status).toBe("error");
  });
});

describe("ask_user in read-only mode", () => {
  it("is offered and asks all the same (asking changes nothing)", async () => {
    const researcher = AGENT_SPECS.researcher;
    const models = scriptedModels({
      researcher: [calls({ name: "ask_user", args: { question: "Which module?" } }), calls({ name: "submit_findings", args: { summary: "ok", findings: [] } })],
    });
    const h = agentHarness(researcher, models, { workspace: ws.root, safety: { approval: "read-only" } });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ type: "question", agent: "researcher", question: "Which module?", choices: [] });
    const final = await h.resume({ answer: "parser" });
    expect(toolMessages(final.messages).map((m) => text(m))).toContain("The person answered: parser");
  });
});
