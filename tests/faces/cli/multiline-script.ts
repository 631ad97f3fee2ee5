import { type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

/** Model text with line breaks, indentation and a blank line, as models write it. */
export const RESEARCH_GOAL = "Find the banner\n  and its tests";
export const FINDING_NOTE = "The banner is printed by src/banner.js.\n\nIts test is test/banner.test.js.";
export const CODER_GOAL = "Change the banner:\n- say hello\n- say goodbye";
export const CODER_SUMMARY = "Changed the banner.\nBoth lines print.";
export const COMMAND = "echo hello\necho goodbye";
export const REVIEW_SUMMARY = "The banner prints both lines.\nIt has no test.";
export const PROBLEM = "The test does not check\n  the second line";
export const SESSION_SUMMARY = "The banner says hello and goodbye.\n\nIts test still misses a line.";

const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, args }] });
const plan = (agent: string, goal: string): ScriptedReply => call("update_plan", { remainingSteps: [{ agent, goal }], finished: false });

/**
 * One step at a time (researcher, coder, reviewer), every goal, summary, finding, command and review note written
 * over several lines. The first review asks for a change; the review after the fix approves when the task says
 * "until approved" (the planner then finishes with a summary of two paragraphs), else it asks again.
 */
export function multilineScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  const done = req.messages.filter((m) => m.role === "tool").length;
  if (role === "planner") {
    if (text.includes("There is no plan yet")) return plan("researcher", RESEARCH_GOAL);
    if (/Latest report \(s\d+, researcher/.test(text)) return plan("coder", CODER_GOAL);
    if (/Latest report \(s\d+, coder/.test(text)) return plan("reviewer", "Review the banner");
    return call("update_plan", { remainingSteps: [], finished: true, outcome: "done", summary: SESSION_SUMMARY });
  }
  if (role === "researcher") return call("submit_findings", { summary: "Found it.", findings: [{ source: "src/banner.js:1", note: FINDING_NOTE }] });
  if (role === "coder") return done === 0 ? call("execute_command", { command: COMMAND }) : call("submit_work", { status: "done", summary: CODER_SUMMARY });
  if (role === "reviewer") {
    if (text.includes("until approved") && text.includes("Fix the problems")) return call("submit_review", { decision: "approve", summary: REVIEW_SUMMARY });
    return call("submit_review", { decision: "changes_requested", summary: REVIEW_SUMMARY, problems: [{ file: "test/banner.test.js", problem: PROBLEM }] });
  }
  return { content: "I have nothing to do." };
}
