import { type ScriptedReply, type ScriptedRequest, toolResults } from "../helpers/scripted-openai-server.js";
import { roleOf } from "../faces/cli/task-script.js";

/**
 * The planner plans one coder step; the coder runs `commands` one after another, then reports what the
 * tools answered. Replies depend only on the request, so a resumed session gets the same ones.
 */
export function commandScript(commands: string[]) {
  return (req: ScriptedRequest): ScriptedReply => {
    const role = roleOf(req);
    const text = req.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    if (role === "planner") {
      if (text.includes("There is no plan yet")) {
        return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Run the checks" }], finished: false } }] };
      }
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Checked." } }] };
    }
    if (role === "coder") {
      const done = toolResults(req);
      const next = commands[done.length];
      if (next !== undefined) return { toolCalls: [{ name: "execute_command", args: { command: next } }] };
      return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: done.map((d) => d.content.split("\n")[0]).join(" / ") } }] };
    }
    if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
    return { toolCalls: [{ name: "submit_findings", args: { summary: "nothing", findings: [] } }] };
  };
}
