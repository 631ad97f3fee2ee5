import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import type { QuestionRequest } from "../../core/index.js";

/** The question as the agent's message, when the editor offers no form: the next prompt is the answer. */
export function questionMessage(request: QuestionRequest): string {
  const who = request.agent === "planner" ? "the planner" : `${request.agent}${request.stepId ? ` (${request.stepId})` : ""}`;
  const choices = request.choices.map((choice, i) => `${i + 1}. ${choice}`).join("\n");
  return `Question from ${who}:\n${request.question}${choices ? `\n${choices}` : ""}\n\nYour next prompt is the answer${choices ? " (a number or your own words)" : ""}.`;
}

/** A reply that is just a choice's number picks that choice; anything else is the answer in the person's words. */
export function answerText(reply: string, request: QuestionRequest): string {
  const trimmed = reply.trim();
  const index = /^\d+$/.test(trimmed) ? Number(trimmed) - 1 : -1;
  return request.choices[index] ?? trimmed;
}

/** The question as an elicitation form: one text field (choices listed; the person may still answer in own words). */
export function questionForm(sessionId: string, request: QuestionRequest): CreateElicitationRequest {
  const choices = request.choices.map((choice, i) => `${i + 1}. ${choice}`).join("\n");
  return {
    mode: "form",
    sessionId,
    message: request.question,
    requestedSchema: {
      type: "object",
      properties: {
        answer: { type: "string", title: "Answer", description: choices ? `${choices}\n(a number or your own words)` : "Your answer", minLength: 1 },
      },
      required: ["answer"],
    },
  };
}
