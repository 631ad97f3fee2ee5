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
});
