import { type ScriptedReply, type ScriptedRequest, toolResults, userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

export const CODER_QUESTION = "Which greeting should the banner use?";
export const CODER_CHOICES = ["Hello", "Good morning"];

/**
 * The coder asks one question (ask_user with choices) before it does anything, then finishes with the answer in its
 * summary; the planner plans that one step and finishes after its report (and the final review, which approves). Each reply depends only on the request,
 * so a resumed session gets the same answers.
 */
export function coderAsksScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return {
        toolCalls: [
          { name: "update_plan", args: { remainingSteps: [{ agent: "coder", goal: "Pick the banner's greeting", acceptanceCriteria: [] }], finished: false } },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "The greeting is chosen." } }] };
  }
  if (role === "coder") {
    const answer = toolResults(req).find((r) => r.name === "ask_user");
    if (!answer) return { toolCalls: [{ name: "ask_user", args: { question: CODER_QUESTION, choices: CODER_CHOICES } }] };
    return { toolCalls: [{ name: "submit_work", args: { status: "done", summary: `Chose the greeting. ${answer.content}` } }] };
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "Fine." } }] };
  return { content: "I have nothing to do." };
}

export const PLANNER_QUESTION = "Which port should the server listen on?";
export const PLANNER_CHOICES = ["3000", "8080"];

/** The planner asks first (ask_user with choices), then finishes with the answer in its summary: no sub-agent runs. */
export function plannerAsksScript(req: ScriptedRequest): ScriptedReply {
  if (roleOf(req) !== "planner") return { content: "I have nothing to do." };
  const answer = toolResults(req).find((r) => r.name === "ask_user");
  if (!answer) return { toolCalls: [{ name: "ask_user", args: { question: PLANNER_QUESTION, choices: PLANNER_CHOICES } }] };
  return {
    toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: `Nothing to change. ${answer.content}` } }],
  };
}

/** Another task's script whose planner first asks PLANNER_QUESTION (before it plans), then plans as that script does. */
export function plannerAsksFirst(script: (req: ScriptedRequest) => ScriptedReply): (req: ScriptedRequest) => ScriptedReply {
  return (req) => {
    const first = roleOf(req) === "planner" && userText(req).includes("There is no plan yet");
    if (first && !toolResults(req).some((r) => r.name === "ask_user"))
      return { toolCalls: [{ name: "ask_user", args: { question: PLANNER_QUESTION, choices: PLANNER_CHOICES } }] };
    return script(req);
  };
}
