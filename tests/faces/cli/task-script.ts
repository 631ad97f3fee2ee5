import { type ScriptedReply, type ScriptedRequest, toolResults, userText } from "../../helpers/scripted-openai-server.js";

/**
 * A scripted model that plays all four roles for a small real task: write a module and its unit test, run
 * the test, review, finish. Each reply depends only on the request (which role, how far its conversation
 * is), so a resumed session gets the same answers.
 */
export const GREET_SOURCE = "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n";
export const GREET_TEST = [
  'import { test } from "node:test";',
  'import assert from "node:assert/strict";',
  'import { greet } from "../src/greet.js";',
  "",
  'test("greets by name", () => {',
  '  assert.equal(greet("Ada"), "Hello, Ada!");',
  "});",
  "",
].join("\n");
export const TEST_COMMAND = "node --test test/";

export type Role = "planner" | "researcher" | "coder" | "reviewer" | "unknown";

export function roleOf(req: ScriptedRequest): Role {
  if (req.toolNames.includes("update_plan")) return "planner";
  if (req.toolNames.includes("submit_work")) return "coder";
  if (req.toolNames.includes("submit_review")) return "reviewer";
  if (req.toolNames.includes("submit_findings")) return "researcher";
  return "unknown";
}

export function greetScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const done = toolResults(req).length;
  if (role === "planner") {
    const context = userText(req);
    if (context.includes("There is no plan yet")) {
      return {
        toolCalls: [
          {
            name: "update_plan",
            args: {
              remainingSteps: [
                {
                  agent: "coder",
                  goal: "Create src/greet.js exporting greet(name) and test/greet.test.js; run the tests",
                  acceptanceCriteria: ["node --test passes"],
                },
                { agent: "reviewer", goal: "Review greet and run the tests", acceptanceCriteria: ["tests pass"] },
              ],
              finished: false,
            },
          },
        ],
      };
    }
    if (/Latest report \(s\d+, reviewer, done\)/.test(context) && context.includes("Review verdict: approve")) {
      return {
        toolCalls: [
          { name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "greet() and its test are written; the tests pass." } },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "reviewer", goal: "Review greet and run the tests" }], finished: false } }] };
  }
  if (role === "coder") {
    const steps = [
      { name: "write_file", args: { path: "src/greet.js", content: GREET_SOURCE } },
      { name: "write_file", args: { path: "test/greet.test.js", content: GREET_TEST } },
      { name: "execute_command", args: { command: TEST_COMMAND } },
      { name: "submit_work", args: { status: "done", summary: "Wrote src/greet.js and test/greet.test.js; node --test passes." } },
    ];
    const next = steps[Math.min(done, steps.length - 1)];
    return { toolCalls: next ? [next] : [] };
  }
  if (role === "reviewer") {
    const steps = [
      { name: "read_file", args: { path: "src/greet.js" } },
      { name: "execute_command", args: { command: TEST_COMMAND } },
      { name: "submit_review", args: { decision: "approve", summary: "greet works and its test passes." } },
    ];
    const next = steps[Math.min(done, steps.length - 1)];
    return { toolCalls: next ? [next] : [] };
  }
  return { content: "I have nothing to do." };
}
