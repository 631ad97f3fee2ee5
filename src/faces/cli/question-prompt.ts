import type { QuestionRequest } from "../../core/index.js";

/** The prompt after the question (printed by the printers with its numbered choices). */
export const QUESTION_PROMPT = (request: QuestionRequest): string =>
  request.choices.length > 0 ? `Your answer (a number from 1 to ${request.choices.length}, or your own words) > ` : "Your answer > ";
export const QUESTION_RETRY_LINE = "Please type an answer (an empty line is not one).\n";

/**
 * One line answers a question: a choice's number stands for that choice's text; anything else is the answer as typed.
 * An empty line is no answer (asked again).
 */
export function parseQuestionAnswer(line: string, request: QuestionRequest): string | undefined {
  const text = line.trim();
  if (!text) return undefined;
  const number = /^\d+$/.test(text) ? Number(text) : 0;
  const choice = number >= 1 ? request.choices[number - 1] : undefined;
  return choice ?? text;
}
