import { type ScriptedReply, type ScriptedRequest, toolResults, userText } from "../helpers/scripted-openai-server.js";
import { roleOf } from "../faces/cli/task-script.js";

/**
 * Session 1 ("Add greet"): the reviewer finds a concrete problem, the coder fixes it, the re-review approves:
 * a lesson worth remembering. Any later task: one coder step and a review, nothing more.
 */
export const REVIEW_PROBLEM = "greet() must trim whitespace around the name";

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name, args }] };
}

export function memoryScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  const done = toolResults(req).length;
  if (role === "planner") {
    if (text.includes("There is no plan yet") && text.includes("Task: Research")) {
      return call("update_plan", {
        remainingSteps: [{ agent: "researcher", goal: "Find what earlier sessions learned about greet", acceptanceCriteria: [] }],
        finished: false,
      });
    }
    if (text.includes("Task: Research")) {
      return call("update_plan", { remainingSteps: [], finished: true, outcome: "done", summary: "Researched." });
    }
    if (text.includes("There is no plan yet")) {
      return call("update_plan", {
        remainingSteps: [
          { agent: "coder", goal: "Write the function and its file", acceptanceCriteria: [] },
          { agent: "reviewer", goal: "Review the function", acceptanceCriteria: [] },
        ],
        finished: false,
      });
    }
    if (/Latest report \(s\d+, reviewer, done\)/.test(text) && text.includes("Review verdict: approve")) {
      return call("update_plan", { remainingSteps: [], finished: true, outcome: "done", summary: "Written and reviewed." });
    }
    return call("update_plan", { remainingSteps: [{ agent: "reviewer", goal: "Review the function" }], finished: false });
  }
  if (role === "coder") {
    const fixing = text.includes("The reviewer requested these changes");
    const file = text.includes("farewell") ? "src/farewell.js" : "src/greet.js";
    const content = fixing ? "export const greet = (name) => `Hello, ${name.trim()}!`;\n" : "export const greet = (name) => `Hello, ${name}!`;\n";
    if (done === 0) return call("write_file", { path: file, content });
    return call("submit_work", { status: "done", summary: fixing ? "greet now trims the name" : `wrote ${file}` });
  }
  if (role === "reviewer") {
    // Only the first review of the greet task finds the problem; once a fix step is done, approve.
    const firstReview = text.includes("Overall task: Add greet(") && !text.includes("[coder, done] Fix the problems");
    if (done === 0) return call("list_directory", { path: "src" });
    if (firstReview)
      return call("submit_review", {
        decision: "changes_requested",
        summary: "names are not trimmed",
        problems: [{ file: "src/greet.js", problem: REVIEW_PROBLEM, fix: "call name.trim()" }],
      });
    return call("submit_review", { decision: "approve", summary: "fine" });
  }
  if (role === "researcher") {
    if (done === 0) return call("memory_search", { query: "greet name whitespace trim" });
    return call("submit_findings", { summary: "memory knows about trimming", findings: [{ source: "memory", note: "greet trims names" }] });
  }
  return { content: "nothing to do" };
}
