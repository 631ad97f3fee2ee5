import { describe, expect, it } from "vitest";
import { type ScriptedReply, type ScriptedRequest, toolResults } from "../../helpers/scripted-openai-server.js";
import { coderAsksScript } from "./ask-user-script.js";
import { useCliSession } from "./cli-session.js";
import { roleOf } from "./task-script.js";

/** The coder asks a second question after the first is answered, then finishes with what that call returned. */
function coderAsksTwice(req: ScriptedRequest): ScriptedReply {
  if (roleOf(req) !== "coder") return coderAsksScript(req);
  const asked = toolResults(req).filter((r) => r.name === "ask_user");
  if (asked.length === 0) return { toolCalls: [{ name: "ask_user", args: { question: "First question?" } }] };
  if (asked.length === 1) return { toolCalls: [{ name: "ask_user", args: { question: "Second question?" } }] };
  return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "Done." } }] };
}

const cli = useCliSession(coderAsksTwice);

describe("--max-questions", () => {
  it("limits the questions of a turn: past it ask_user is a tool error telling the model to decide itself", async () => {
    const run = await cli.cli(["run", "--json", "--max-questions", "1", "Pick a greeting"], "first answer\n");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; question?: string });
    expect(events.filter((e) => e.type === "question_asked").map((e) => e.question)).toEqual(["First question?"]);
    const last = cli.server.requests.filter((r) => roleOf(r) === "coder").at(-1)!;
    expect(
      toolResults(last)
        .filter((r) => r.name === "ask_user")
        .map((r) => r.content),
    ).toEqual([
      "The person answered: first answer",
      "Error: the limit of 1 questions per turn is reached, so this question was not asked. Decide yourself, and say in your result what you assumed.",
    ]);
  });

  it("0 asks nothing: neither the planner nor any agent is offered ask_user or told of it, and a call made anyway is refused", async () => {
    const run = await cli.cli(["run", "--json", "--max-questions", "0", "Pick a greeting"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === "question_asked")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "done" });
    const requests = cli.server.requests;
    expect(new Set(requests.map(roleOf))).toEqual(new Set(["planner", "coder", "reviewer"]));
    for (const req of requests) {
      expect(req.toolNames, roleOf(req)).not.toContain("ask_user");
      const system = req.messages.filter((m) => m.role === "system").map((m) => m.content);
      expect(system.join("\n"), roleOf(req)).toContain("Nobody can be asked in this session");
      expect(system.join("\n"), roleOf(req)).not.toContain("ask_user");
    }
    // This coder calls ask_user although it is not offered: each call is refused, and it decides itself.
    const last = requests.filter((r) => roleOf(r) === "coder").at(-1)!;
    expect(
      toolResults(last)
        .filter((r) => r.name === "ask_user")
        .map((r) => r.content),
    ).toEqual([
      "Error: this session asks no questions (--max-questions 0), so this question was not asked. Decide yourself, and say in your result what you assumed.",
      "Error: this session asks no questions (--max-questions 0), so this question was not asked. Decide yourself, and say in your result what you assumed.",
    ]);
  });

  it("refuses a value that is not a whole number, in one line", async () => {
    const run = await cli.cli(["run", "--max-questions", "none", "Pick a greeting"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mini-cursor: --max-questions must be a whole number (0 or more), got "none"\n');
    expect(cli.server.requests).toEqual([]);
  });
});
