import { describe, expect, it } from "vitest";
import { toolResults } from "../../helpers/scripted-openai-server.js";
import { CODER_CHOICES, CODER_QUESTION, coderAsksScript } from "./ask-user-script.js";
import { useCliSession } from "./cli-session.js";
import { roleOf } from "./task-script.js";

const cli = useCliSession(coderAsksScript);

type Event = { type: string; [key: string]: unknown };
const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Event);

describe("a sub-agent's clarifying question (ask_user)", () => {
  it("with stdin closed the session waits (exit 130, awaiting_input); resume asks again without a model call and a choice number answers it", async () => {
    const first = await cli.cli(["run", "--json", "Pick a greeting for the banner"], "");
    expect(first.code, first.stdout + first.stderr).toBe(130);
    const asked = events(first.stdout);
    expect(asked.filter((e) => e.type === "question_asked")).toEqual([
      expect.objectContaining({ question: CODER_QUESTION, choices: CODER_CHOICES, agent: "coder", stepId: "s1" }),
    ]);
    expect(asked.filter((e) => e.type === "question_answered")).toEqual([]);
    expect(asked.at(-1)).toMatchObject({ type: "session_finished", status: "awaiting_input" });
    const listed = JSON.parse((await cli.cli(["sessions", "--json"])).stdout) as { status: string }[];
    expect(listed[0]?.status).toBe("awaiting_input");

    const before = cli.server.requests.length;
    const resumed = await cli.cli(["resume", "--json"], "2\n");
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const again = events(resumed.stdout);
    expect(again.filter((e) => e.type === "question_asked").map((e) => e.question)).toEqual([CODER_QUESTION]);
    expect(again.filter((e) => e.type === "question_answered")).toEqual([expect.objectContaining({ answer: "Good morning" })]);
    expect(again.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
    // The first request after resume is the coder's, already carrying the answer: the asking call was not made again.
    const after = cli.server.requests.slice(before);
    expect(after.map(roleOf)).toEqual(["coder", "planner", "reviewer", "planner"]);
    expect(toolResults(after[0]!).find((r) => r.name === "ask_user")?.content).toBe("The person answered: Good morning");
  });

  it("a line piped on stdin answers in the same run, in the person's own words", async () => {
    const run = await cli.cli(["run", "Pick a greeting for the banner"], "Hi there\n");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("? question from coder (s1):");
    expect(run.stdout).toContain(`    ${CODER_QUESTION}`);
    expect(run.stdout).toContain("    2. Good morning");
    const coder = cli.server.requests.filter((r) => roleOf(r) === "coder");
    expect(coder).toHaveLength(2);
    expect(coder[0]?.toolNames).toContain("ask_user");
    expect(toolResults(coder[1]!).find((r) => r.name === "ask_user")?.content).toBe("The person answered: Hi there");
  });
});
