import type { ApprovalAnswer, ApprovalRequest, QuestionRequest } from "../core/index.js";

/**
 * Asks a person to approve a paused command or file change, and answers clarifying questions. Each face has its
 * own: a terminal or a pipe (src/faces/cli), an editor over the Agent Client Protocol (src/faces/acp).
 */
export interface ApprovalPrompter {
  /** The answer, or null when nobody can answer (stdin closed, the turn cancelled): the approval stays pending. */
  ask(request: ApprovalRequest): Promise<ApprovalAnswer | null>;
  /** A clarifying question (ask_user): the answer's text, or null when nobody can answer now. */
  askQuestion(request: QuestionRequest): Promise<string | null>;
  close(): void;
}
