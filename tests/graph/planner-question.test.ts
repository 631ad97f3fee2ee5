import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { EventRecorder, isQuestionRequest } from "../../src/core/index.js";
import { DEFAULT_PRICE_TABLE } from "../../src/models/cost/prices.js";
import { planFollowUp } from "../../src/graph/follow-up.js";
import type { WorkspaceStateValue } from "../../src/graph/state.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, finishPlan, plan, scriptedModels } from "./scripted-models.js";
import { testGraph } from "./wire.js";

const ws = useTempWorkspace({ "a.txt": "a\n" });

const ask = (question: string, choices?: string[]) => calls({ name: "ask_user", args: choices ? { question, choices } : { question } });

function pendingQuestion(result: unknown) {
  const interrupts = (result as { __interrupt__?: { value: unknown }[] }).__interrupt__ ?? [];
  return interrupts.map((i) => i.value).find(isQuestionRequest);
}

describe("the planner asks the person (ask_user)", () => {
  it("pauses with the question, and on resume gives its model the question and answer without asking the model again first", async () => {
    const models = scriptedModels({ planner: [ask("Which database?", ["SQLite", "Postgres"]), finishPlan("Nothing to do with Postgres.")] });
    const graph = testGraph({ models, events: new EventRecorder(), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "q" } };
    const paused = await graph.invoke({ task: "Set up a database", workspace: ws.root }, config);
    expect(pendingQuestion(paused)).toEqual({ type: "question", agent: "planner", stepId: "", question: "Which database?", choices: ["SQLite", "Postgres"] });
    expect(models.seen.planner).toHaveLength(1);
    expect((await graph.getState(config)).values.counters.questions).toBe(1);

    // A run without an answer (as `resume` with stdin closed) asks again, with no model call.
    const again = await graph.invoke(null, config);
    expect(pendingQuestion(again)?.question).toBe("Which database?");
    expect(models.seen.planner).toHaveLength(1);

    const final = await graph.invoke(new Command({ resume: { answer: "Postgres" } }), config);
    expect(final.status).toBe("done");
    expect(models.seen.planner).toHaveLength(2);
    const second = models.seen.planner?.[1] ?? [];
    expect(second.at(-2)?.getType()).toBe("ai");
    expect(second.at(-1)?.content).toBe("The person answered: Postgres");
    expect(final.answers).toEqual([{ question: "Which database?", answer: "Postgres" }]);
    expect(final.plannerQuestion).toBeNull();
  });

  it("past the turn's limit of questions the model is told to decide itself, and nothing pauses", async () => {
    const models = scriptedModels({ planner: [ask("Really?"), finishPlan("Decided myself.")] });
    const graph = testGraph({ models, events: new EventRecorder(), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "limit", limits: { maxQuestions: 1 } } };
    const final = await graph.invoke({ task: "t", workspace: ws.root, counters: { planRevisions: 0, agentRuns: 0, reviewRounds: 0, questions: 1 } }, config);
    expect(pendingQuestion(final)).toBeUndefined();
    expect(final.status).toBe("done");
    const second = models.seen.planner?.[1] ?? [];
    expect(String(second.at(-1)?.content)).toContain("the limit of 1 questions per turn is reached");
  });
});

describe("questions are counted per turn", () => {
  it("a sub-agent's question counts toward the limit: with a limit of 1, the planner may not ask after the coder did", async () => {
    const models = scriptedModels({
      planner: [plan([{ agent: "researcher", goal: "Find the database" }]), ask("And the port?"), finishPlan("Decided the port myself.")],
      researcher: [ask("Which database?"), calls({ name: "submit_findings", args: { summary: "Postgres, as the person said.", findings: [] } })],
    });
    const graph = testGraph({ models, events: new EventRecorder(), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "count", limits: { maxQuestions: 1 } } };
    const paused = await graph.invoke({ task: "t", workspace: ws.root }, config);
    expect(pendingQuestion(paused)).toMatchObject({ agent: "researcher", stepId: "s1", question: "Which database?" });
    const final = await graph.invoke(new Command({ resume: { answer: "Postgres" } }), config);
    expect(pendingQuestion(final)).toBeUndefined();
    expect(final.counters.questions).toBe(1);
    expect(final.status).toBe("done");
    // The researcher's answer is the session's: the planner's next turn sees it.
    expect(final.answers).toEqual([{ question: "Which database?", answer: "Postgres" }]);
    expect(String(models.seen.planner?.[1]?.[1]?.content)).toContain("- Which database? → Postgres");
    const last = models.seen.planner?.at(-1) ?? [];
    expect(String(last.at(-1)?.content)).toContain("the limit of 1 questions per turn is reached");
  });

  it("a follow-up turn may ask again after the turn before used the limit, and is limited in turn", async () => {
    const models = scriptedModels({
      planner: [
        ask("Which database?"),
        finishPlan("SQLite it is."),
        ask("Which table name?"),
        plan([{ agent: "researcher", goal: "Find the schema" }]),
        ask("And the index?"),
        finishPlan("Added the table."),
      ],
      researcher: [calls({ name: "submit_findings", args: { summary: "No schema yet.", findings: [] } })],
    });
    const graph = testGraph({ models, events: new EventRecorder(), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "turns", limits: { maxQuestions: 1 } } };
    expect(pendingQuestion(await graph.invoke({ task: "t", workspace: ws.root }, config))?.question).toBe("Which database?");
    const first = await graph.invoke(new Command({ resume: { answer: "SQLite" } }), config);
    expect(first.status).toBe("done");
    expect(first.counters.questions).toBe(1);

    const turnTwo = planFollowUp((await graph.getState(config)).values as WorkspaceStateValue, "Add a table", DEFAULT_PRICE_TABLE);
    expect(pendingQuestion(await graph.invoke(turnTwo, config))?.question).toBe("Which table name?");
    const second = await graph.invoke(new Command({ resume: { answer: "users" } }), config);
    expect(pendingQuestion(second)).toBeUndefined();
    expect(second.status).toBe("done");
    expect(second.counters.questions).toBe(1);
    // Its second question, after the researcher's step, was past this turn's limit: refused, not asked.
    expect(String(models.seen.planner?.at(-1)?.at(-1)?.content)).toContain("the limit of 1 questions per turn is reached");
    expect(second.answers).toEqual([
      { question: "Which database?", answer: "SQLite" },
      { question: "Which table name?", answer: "users" },
    ]);
  });
});
