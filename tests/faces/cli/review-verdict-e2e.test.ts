import { describe, expect, it } from "vitest";
import { type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";
import { useCliSession } from "./cli-session.js";
import { roleOf } from "./task-script.js";

/**
 * A reviewer that never gives a verdict (as reported in issue 10): the planner always wants to finish, the coder's
 * change makes the final review mandatory, and the reviewer answers in prose every time. Before, the final review was
 * added again after each verdict-less review until the sub-agent run limit (61 model calls). A model named "good"
 * gives the verdict, for the resume that continues the stopped session. In read-only mode nothing can change, so no
 * final review is added at all.
 */

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Say how greet() would be added" }], finished: false } }] };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Described the change." } }] };
  }
  if (role === "coder") {
    if (!req.messages.some((m) => m.role === "tool")) {
      return { toolCalls: [{ name: "write_file", args: { path: "src/greet.js", content: "export const greet = (name) => `Hello, ${name}!`;\n" } }] };
    }
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: "greet() is in src/greet.js." } }] };
  }
  if (role === "reviewer" && req.model === "good") {
    return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "The description fits the task." } }] };
  }
  return { content: "Looks fine to me." };
}

const session = useCliSession(script);
const cli = (args: string[]) => session.cli(args);

describe("an enforced final review without a verdict (built CLI)", () => {
  it("ends the session after two verdict-less reviews with a clear reason, well under the run limit; resume continues it", async () => {
    const result = await cli(["run", "--approval", "auto", "Add a greet(name) function"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /Reason: no review verdict: the reviewer ended 2 reviews in a row without a verdict \(approve or changes requested\), so the changes are unreviewed; resume gives it another review \(perhaps with another model\)$/m,
    );

    // Two reviews of two calls each (prose, then prose after the one reminder); the planner three times, the coder twice.
    const byRole = (role: string) => session.server.requests.filter((r) => roleOf(r) === role).length;
    expect(byRole("reviewer")).toBe(4);
    expect(byRole("planner")).toBe(3);
    expect(byRole("coder")).toBe(2);
    expect(session.server.requests).toHaveLength(9);

    const rows = JSON.parse((await cli(["sessions", "--json"])).stdout) as { id: string; status: string }[];
    expect(rows.map((r) => r.status)).toEqual(["failed"]);

    // resume gives the reviewer another review (here with a model that gives verdicts), counting from zero.
    const before = session.server.requests.length;
    const resumed = await cli(["resume", "--model", "good"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Continuing after the stop (no review verdict:");
    expect(resumed.stdout).toContain("review: approve");
    expect(session.server.requests.slice(before).filter((r) => roleOf(r) === "reviewer")).toHaveLength(1);
  });

  it("adds no final review in read-only mode, where nothing can change", async () => {
    const result = await cli(["run", "--approval", "read-only", "Add a greet(name) function"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(session.server.requests.filter((r) => roleOf(r) === "reviewer")).toHaveLength(0);
    expect(result.stdout).not.toContain("adding a final review");
  });
});
