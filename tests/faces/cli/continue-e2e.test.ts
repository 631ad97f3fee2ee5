import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolResults, type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";
import { useCliSession } from "./cli-session.js";
import { GREET_SOURCE, greetScript, roleOf } from "./task-script.js";

/**
 * `resume` continues a session that a model derailed (failed) or a limit stopped (limit_reached), from its last
 * checkpoint, with fresh counters and optionally another model. The built CLI against a scripted server: a model
 * named "broken-planner" sends malformed update_plan calls, "broken-coder" malformed coder calls (and its planner gives
 * up on them); any other model plays the greet task.
 */

function script(req: ScriptedRequest): ScriptedReply {
  const broken = req.model.startsWith("broken");
  const role = roleOf(req);
  if (role === "planner") {
    if (req.model === "broken-planner" && userText(req).includes("There is no plan yet")) {
      // Malformed every time: invalid JSON, an unknown tool, missing arguments.
      const attempt = req.messages.filter((m) => m.role === "assistant").length;
      const bad = [
        { name: "update_plan", args: '{"remainingSteps": [oops' },
        { name: "make_plan", args: { steps: [] } },
        { name: "update_plan", args: { finished: "soon" } },
      ][attempt % 3];
      return { toolCalls: bad ? [bad] : [] };
    }
    if (/Latest report \(s\d+, coder, (?:failed|incomplete)\)/.test(userText(req))) {
      return broken
        ? {
            toolCalls: [
              { name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "failed", summary: "The coder cannot make valid tool calls." } },
            ],
          }
        : {
            toolCalls: [
              {
                name: "update_plan",
                args: {
                  remainingSteps: [
                    { agent: "coder", goal: "Create src/greet.js and test/greet.test.js; run the tests" },
                    { agent: "reviewer", goal: "Review greet" },
                  ],
                  finished: false,
                },
              },
            ],
          };
    }
    return greetScript(req);
  }
  if (role === "coder" && broken) return { toolCalls: [{ name: "write_file", args: '{"path": "src/greet.js", "content": oops' }] };
  return greetScript(req);
}

const session = useCliSession(script);
const cli = (args: string[]) => session.cli(args);

async function latest(): Promise<{ id: string; status: string; model: string }> {
  const rows = JSON.parse((await cli(["sessions", "--json"])).stdout) as { id: string; status: string; model: string }[];
  expect(rows).toHaveLength(1);
  return rows[0] ?? { id: "", status: "", model: "" };
}

describe("resume continues a session that ended failed or limit_reached", () => {
  it("a planner derailed by malformed tool calls: failed, then continued with another --model to done", async () => {
    const failed = await cli(["run", "--model", "broken-planner", "Add greet with a test"]);
    expect(failed.stderr).toBe("");
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Reason: no valid plan: the planner gave none after 3 attempts/);
    expect((await latest()).status).toBe("failed");

    const before = session.server.requests.length;
    const resumed = await cli(["resume", "--model", "good"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const after = session.server.requests.slice(before);
    expect(after.every((r) => r.model === "good")).toBe(true);
    // The planner is told the session was continued, and why it had stopped.
    expect(userText(after[0]!)).toMatch(/The user continued this session after it stopped \(no valid plan: /);
    expect(resumed.stdout).toContain("Continuing after the stop (no valid plan:");
    expect(resumed.stdout).toMatch(/Done: Add greet with a test[\s\S]*Continued once with `mini-cursor resume` \(last after: no valid plan: /);
    expect(await fs.readFile(path.join(session.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    const row = await latest();
    expect(row.status).toBe("done");
    expect(row.model).toMatch(/^good /);
  });

  it("a coder derailed by invalid tool-call JSON (the planner gave up): continued from the unread report", async () => {
    const failed = await cli(["run", "--model", "broken-coder", "--max-model-calls", "4", "Add greet with a test"]);
    expect(failed.stderr).toBe("");
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("The coder cannot make valid tool calls.");
    expect((await latest()).status).toBe("failed");

    const before = session.server.requests.length;
    const resumed = await cli(["resume", "--model", "good"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const after = session.server.requests.slice(before);
    // The planner decides again on the coder's failed report (kept unread by the stop), then the work is done.
    expect(userText(after[0]!)).toMatch(/Latest report \(s1, coder, (?:failed|incomplete)\)/);
    expect(after.filter((r) => roleOf(r) === "coder" && toolResults(r).length === 0)).toHaveLength(1);
    expect(resumed.stdout).toMatch(/Continued once with `mini-cursor resume` \(last after: The coder cannot make valid tool calls\.\)/);
    expect(resumed.stdout).toMatch(/✓ s\d+ \[coder\]/);
    expect((await latest()).status).toBe("done");
  });

  it("a session stopped by --max-steps goes on with fresh counters, without asking the planner first", async () => {
    const stopped = await cli(["run", "--max-steps", "1", "Add greet with a test"]);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(/Stopped: limit reached: Add greet with a test[\s\S]*Reason: sub-agent runs: the limit of 1 runs was reached before s2/);
    expect((await latest()).status).toBe("limit_reached");

    const before = session.server.requests.length;
    const resumed = await cli(["resume"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const after = session.server.requests.slice(before);
    // s2 (the review) starts at once: the first request is the reviewer's, and the coder does not run again.
    expect(roleOf(after[0]!)).toBe("reviewer");
    expect(after.some((r) => roleOf(r) === "coder")).toBe(false);
    expect(resumed.stdout).toContain("▶ s2 reviewer");
    expect(resumed.stdout).toMatch(/Continued once with `mini-cursor resume` \(last after: sub-agent runs: /);
    expect((await latest()).status).toBe("done");
  });

  it("a finished session is still left alone", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const again = await cli(["resume"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already finished \(done\); nothing to resume/);
  });
});
