import { describe, expect, it } from "vitest";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { PLANNER_CHOICES, PLANNER_QUESTION, plannerAsksScript } from "./ask-user-script.js";
import { useCliSession } from "./cli-session.js";

const cli = useCliSession(plannerAsksScript);

type Event = { type: string; [key: string]: unknown };
const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Event);

describe("the planner's clarifying question", () => {
  it("a choice number on stdin answers it, and the answer reaches the planner's next request", async () => {
    const run = await cli.cli(["run", "--json", "Start the server"], "2\n");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const all = events(run.stdout);
    expect(all.filter((e) => e.type === "question_asked")).toEqual([
      expect.objectContaining({ question: PLANNER_QUESTION, choices: PLANNER_CHOICES, agent: "planner", stepId: "" }),
    ]);
    expect(all.filter((e) => e.type === "question_answered")).toEqual([expect.objectContaining({ answer: "8080" })]);
    expect(cli.server.requests).toHaveLength(2);
    const second = cli.server.requests[1]!;
    expect(toolResults(second)).toEqual([expect.objectContaining({ name: "ask_user", content: "The person answered: 8080" })]);
    // While the session may ask, the planner must call a tool (either), not update_plan by name.
    expect(cli.server.requests[0]?.toolNames).toEqual(["ask_user", "update_plan"]);
    expect(cli.server.requests[0]?.toolChoice).toBe("required");
    expect(all.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
  });

  it("with stdin closed it waits (awaiting_input), and resume asks the planner's question again without a model call", async () => {
    const first = await cli.cli(["run", "Start the server"]);
    expect(first.code, first.stdout + first.stderr).toBe(130);
    expect(first.stdout).toContain("? question from planner:");
    expect(first.stdout).toContain("    1. 3000");
    expect(first.stdout).toContain("Waiting for an answer (stdin closed). Answer it with: mini-cursor resume");
    expect(cli.server.requests).toHaveLength(1);
    const resumed = await cli.cli(["resume"], "3000\n");
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(PLANNER_QUESTION);
    expect(cli.server.requests).toHaveLength(2);
    expect(toolResults(cli.server.requests[1]!).map((r) => r.content)).toEqual(["The person answered: 3000"]);
  });
});
