import readline from "node:readline";
import type { ApprovalAnswer, ApprovalRequest } from "../../core/index.js";
import type { ApprovalPrompter } from "../../host/prompter.js";
import type { Output } from "./printers/human.js";
import { parseQuestionAnswer, QUESTION_PROMPT, QUESTION_RETRY_LINE } from "./question-prompt.js";

/** The question, shown after the request itself has been printed. */
export const APPROVAL_PROMPT = (request: ApprovalRequest): string => `Approve? [y]es / [n]o <reason> / [a]lways (${request.suggestedPattern}) > `;
export const RETRY_LINE = "Please answer y, n <reason> or a [pattern].\n";

/**
 * One answer per line: `y` (approve), `n [reason]` (reject, the reason goes back to the model),
 * `a [pattern]` (approve and allow the pattern for the rest of the session; the suggested one by default).
 * The same words answer at a terminal (src/faces/cli/terminal-prompter.ts) and from a pipe (below).
 */
export function parseAnswer(line: string, request: ApprovalRequest): ApprovalAnswer | undefined {
  const text = line.trim();
  const match = /^(y|yes|n|no|a|always)\b[\s:]*(.*)$/i.exec(text);
  if (!match) return undefined;
  const word = (match[1] ?? "").toLowerCase();
  const rest = (match[2] ?? "").trim();
  if (word === "y" || word === "yes") return { decision: "approve" };
  if (word === "n" || word === "no") return { decision: "reject", reason: rest };
  return { decision: "always", pattern: rest || request.suggestedPattern };
}

/**
 * Answers piped into stdin, one per line (scripts and tests answer approvals this way). Unlike at a terminal,
 * lines that arrive before a question are kept, in order, and answer the next questions: a script writes all
 * its answers up front. Closing stdin leaves the remaining questions unanswered (null).
 */
export function createLinePrompter(input: NodeJS.ReadableStream, out: Output, showPrompt: boolean): ApprovalPrompter {
  const lines: string[] = [];
  const waiters: ((line: string | null) => void)[] = [];
  let closed = false;
  const rl = readline.createInterface({ input, terminal: false });
  rl.on("line", (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  rl.on("close", () => {
    closed = true;
    for (const waiter of waiters.splice(0)) waiter(null);
  });
  const nextLine = (): Promise<string | null> => {
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (closed) return Promise.resolve(null);
    return new Promise((resolve) => waiters.push(resolve));
  };
  return {
    async ask(request) {
      for (;;) {
        if (showPrompt) out.write(APPROVAL_PROMPT(request));
        const line = await nextLine();
        if (line === null) return null;
        const answer = parseAnswer(line, request);
        if (answer) return answer;
        if (showPrompt) out.write(RETRY_LINE);
      }
    },
    async askQuestion(request) {
      for (;;) {
        if (showPrompt) out.write(QUESTION_PROMPT(request));
        const line = await nextLine();
        if (line === null) return null;
        const answer = parseQuestionAnswer(line, request);
        if (answer !== undefined) return answer;
        if (showPrompt) out.write(QUESTION_RETRY_LINE);
      }
    },
    close() {
      rl.close();
    },
  };
}
