import { toolResults, type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

/**
 * The scripted model of the conversation tests: a message asks for a command as RUN[command]; the planner plans one
 * coder step for it, the coder runs it and reports, the reviewer approves. Replies depend only on the request.
 */
const command = (text: string): string | undefined => [...text.matchAll(/RUN\[([^\]]+)\]/g)].at(-1)?.[1];

export function chatScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  if (role === "planner") {
    const followUps = [...text.matchAll(/Follow-up instruction \(turn \d+\): ([^\n]*)/g)];
    const wanted = command(followUps.at(-1)?.[1] ?? text) ?? "true";
    if (text.includes(`ran «${wanted}»`))
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: `Ran ${wanted}.` } }] };
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: `Run «${wanted}»` }], finished: false } }] };
  }
  if (role === "coder") {
    const wanted = /Your step \(s\d+\): Run «([^»]+)»/.exec(text)?.[1] ?? "true";
    if (toolResults(req).length === 0) return { toolCalls: [{ name: "execute_command", args: { command: wanted } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: `ran «${wanted}»` } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "ok" } }] };
  return { toolCalls: [{ name: "submit_findings", args: { summary: "nothing", findings: [] } }] };
}

/** The approval question's start, as the conversation shows it. */
export const APPROVE = "Approve? [y]es";
