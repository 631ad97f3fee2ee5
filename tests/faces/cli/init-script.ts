import { type ScriptedReply, type ScriptedRequest, toolResults, userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

/** What the scripted coder writes as AGENTS.md. */
export const AGENTS_MD = [
  "# AGENTS.md",
  "",
  "## Commands",
  "",
  "- Test: `npm test`",
  "- Lint: `npm run lint`",
  "",
  "## Layout",
  "",
  "- `src/`: the code",
  "",
  "## Conventions",
  "",
  "- ESM, two-space indent",
  "",
].join("\n");

/**
 * `mini-cursor init` and `/init` with a scripted model: the planner plans a researcher step (it lists the folder and
 * reads package.json) and a coder step (it writes AGENTS.md, or reports that the person declined it); the final review
 * approves. Any other task or follow-up is done at once. Replies depend only on the request.
 */
export function initScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  const done = toolResults(req);
  if (role === "planner") {
    // Any other task, and a follow-up, has nothing to do.
    if (!text.includes("Write AGENTS.md for this project") || text.includes("Follow-up instruction")) {
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Nothing to do." } }] };
    }
    if (text.includes("There is no plan yet")) {
      const research = { agent: "researcher", goal: "Read the build files, README and layout" };
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [research, { agent: "coder", goal: "Write AGENTS.md" }], finished: false } }] };
    }
    if (text.includes("Review verdict: approve") || /Latest report \(s\d+, coder, (done|failed)\)/.test(text)) {
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "AGENTS.md is settled." } }] };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Write AGENTS.md" }], finished: false } }] };
  }
  if (role === "researcher") {
    const steps = [
      { name: "list_directory", args: { path: "." } },
      { name: "read_file", args: { path: "package.json" } },
      { name: "submit_findings", args: { summary: "An npm project.", findings: [{ source: "package.json", note: "npm test runs the tests" }] } },
    ];
    return { toolCalls: [steps[Math.min(done.length, steps.length - 1)] ?? { name: "submit_findings", args: { summary: "", findings: [] } }] };
  }
  if (role === "coder") {
    if (done.length === 0) return { toolCalls: [{ name: "write_file", args: { path: "AGENTS.md", content: AGENTS_MD } }] };
    const declined = done[0]?.content.includes("rejected") === true;
    const summary = declined ? "The person did not accept AGENTS.md." : "Wrote AGENTS.md.";
    return { toolCalls: [{ name: "submit_work", args: { status: declined ? "blocked" : "done", summary } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "AGENTS.md is right." } }] };
  return { content: "nothing to do" };
}
