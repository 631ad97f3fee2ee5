import fs from "node:fs";
import { roleOf } from "../cli/task-script.js";
import { toolResults, type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";

/** A distinctive command that runs for a minute unless killed. */
export const SLOW_COMMAND = "sleep 47.25";

/**
 * One coder step that runs `command()`; the reviewer approves; a follow-up instruction is finished at once by the
 * planner. Each reply depends only on the request.
 */
export function checkScript(command: () => string): (req: ScriptedRequest) => ScriptedReply {
  return (req) => {
    const role = roleOf(req);
    const text = userText(req);
    if (role === "planner") {
      if (/Follow-up instruction \(turn \d+\)/.test(text))
        return {
          toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Follow-up: nothing more to do." } }],
        };
      if (text.includes("There is no plan yet"))
        return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Run the check" }], finished: false } }] };
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "The check ran." } }] };
    }
    if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "Fine." } }] };
    const steps = [
      { name: "execute_command", args: { command: command() } },
      { name: "submit_work", args: { status: "done", summary: "Ran the check." } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  };
}

/** Processes whose command line names the slow command (the sandbox's own included). */
export function slowProcesses(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("47.25");
      } catch {
        return false;
      }
    })
    .map(Number);
}
