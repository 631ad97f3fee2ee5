import { z } from "zod";

/** The tool every agent and the planner may call to ask the person a clarifying question. */
export const ASK_USER_TOOL_NAME = "ask_user";

export const askUserArgsSchema = z.object({
  question: z.string().trim().min(1).max(2000).describe("One clear question for the person, with the context they need to answer it."),
  choices: z
    .array(z.string().trim().min(1).max(300))
    .max(9)
    .optional()
    .describe("Optional answers to choose from (at most 9); the person may still answer in their own words."),
});
export type AskUserArgs = z.infer<typeof askUserArgsSchema>;

/** What the graph pauses with (LangGraph `interrupt`) when an agent or the planner asks the person something. */
export interface QuestionRequest {
  type: "question";
  /** The asking agent, or "planner". */
  agent: string;
  /** The step the asking agent works on ("" for the planner before any step). */
  stepId: string;
  question: string;
  choices: string[];
}

/**
 * The answer that resumes the graph: `Command({ resume: { answer: "..." } })` (a bare string is accepted too, for
 * hand-written API calls).
 */
export const questionAnswerSchema = z.union([z.object({ answer: z.string() }), z.string().transform((answer) => ({ answer }))]);
export type QuestionAnswer = { answer: string };

export function isQuestionRequest(value: unknown): value is QuestionRequest {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "question";
}

/** The answer a resume value carries; anything else counts as no answer, which the asking model is told. */
export function answerOf(raw: unknown): string {
  const parsed = questionAnswerSchema.safeParse(raw);
  const text = parsed.success ? parsed.data.answer.trim() : "";
  return text || "(no answer was given; decide yourself and say what you assumed)";
}

/** The tool result the asking model gets. */
export function answeredText(answer: string): string {
  return `The person answered: ${answer}`;
}

const NO_QUESTIONS_ADVICE = "Decide yourself, and say in your result what you assumed.";

/** The tool error past the limit of questions, which counts per turn (the task, then each follow-up instruction). */
export function questionLimitText(max: number): string {
  if (max === 0) return `Error: this session asks no questions (--max-questions 0), so this question was not asked. ${NO_QUESTIONS_ADVICE}`;
  return `Error: the limit of ${max} questions per turn is reached, so this question was not asked. ${NO_QUESTIONS_ADVICE}`;
}

/** The one line each agent's prompt has about asking. */
export const ASK_USER_RULE =
  "- ask_user asks the person a question and waits for the answer: use it only when the step is ambiguous in a way that changes the result and neither the workspace nor the brief settles it; otherwise decide, and say in your result what you assumed.";

/** What a prompt says instead of its rule about ask_user when the session may ask nothing (--max-questions 0). */
export const NO_QUESTIONS_RULE = `- Nobody can be asked in this session: where the task is ambiguous, decide, and say in your result what you assumed.`;

/**
 * A prompt for a session that may ask nothing: its rule about ask_user (`rule`, a whole line of it) becomes
 * NO_QUESTIONS_RULE, and a custom agent's "(and ask_user)" goes, so no prompt names a tool the model is not offered.
 * Unchanged when questions may be asked.
 */
export function promptForQuestions(prompt: string, maxQuestions: number, rule: string = ASK_USER_RULE): string {
  return maxQuestions > 0 ? prompt : prompt.replace(rule, NO_QUESTIONS_RULE).replace(" (and ask_user)", "");
}
