import type { ScriptedReply, ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { toolResults, userText } from "../../helpers/scripted-openai-server.js";
import { greetScript, roleOf } from "./task-script.js";

/**
 * The greet task (tests/faces/cli/task-script.ts) plus follow-up turns: an instruction that mentions "farewell" gets a coder
 * step writing src/farewell.js; one that mentions "shout" a coder step writing src/shout.js. Each reply depends only
 * on the request, so the same script serves the original session, its follow-ups and its forks.
 */
export const FAREWELL_SOURCE = "export function farewell(name) {\n  return `Bye, ${name}!`;\n}\n";
export const SHOUT_SOURCE = "export function shout(name) {\n  return `HELLO, ${name.toUpperCase()}!`;\n}\n";

function followUpFile(text: string): { path: string; content: string } | null {
  if (/farewell/i.test(text)) return { path: "src/farewell.js", content: FAREWELL_SOURCE };
  if (/shout/i.test(text)) return { path: "src/shout.js", content: SHOUT_SOURCE };
  return null;
}

export function followUpScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  const text = userText(req);
  if (role === "planner") {
    const instruction = /Follow-up instruction \(turn \d+\): (.*)/.exec(text)?.[1];
    if (instruction === undefined) return greetScript(req);
    const file = followUpFile(instruction);
    // Done once the follow-up's own work is reported (a report the turn before left unread is not it).
    const reported = file !== null && new RegExp(`Latest report \\(s\\d+, coder, done\\): Wrote ${file.path}`).test(text);
    if (text.includes("Review verdict: approve") || reported) {
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: `Follow-up done: ${instruction}` } }] };
    }
    const goal = file ? `Write ${file.path} as the follow-up asks` : "Nothing to write";
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal }], finished: false } }] };
  }
  const file = role === "coder" ? followUpFile(text) : null;
  if (file) {
    const steps = [
      { name: "write_file", args: { path: file.path, content: file.content } },
      { name: "submit_work", args: { status: "done", summary: `Wrote ${file.path}.` } },
    ];
    const next = steps[Math.min(toolResults(req).length, steps.length - 1)];
    return { toolCalls: next ? [next] : [] };
  }
  return greetScript(req);
}

/**
 * followUpScript, except that a coder called with model "hang-coder" never answers: `onCoderWaiting` runs when its
 * request arrives, so a test can stop the session mid-step.
 */
export function hangingCoderScript(onCoderWaiting: () => void): (req: ScriptedRequest) => ScriptedReply {
  return (req) => {
    if (req.model === "hang-coder" && roleOf(req) === "coder") {
      onCoderWaiting();
      return { hangMs: 120_000 };
    }
    return followUpScript(req);
  };
}

/** One row of `mini-cursor sessions --json`, as the follow-up and fork tests read it. */
export interface SessionRow {
  id: string;
  status: string;
  task: string;
  turns: number;
  latestInstruction: string | null;
}

export async function sessionRows(cli: (args: string[]) => Promise<{ stdout: string }>): Promise<SessionRow[]> {
  return JSON.parse((await cli(["sessions", "--json"])).stdout) as SessionRow[];
}
