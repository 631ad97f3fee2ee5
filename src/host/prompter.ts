import type { ApprovalAnswer, ApprovalRequest, QuestionRequest } from "../core/index.js";
import type { ElicitAnswer, ElicitRequest } from "../services/mcp/types.js";

/**
 * Asks a person to approve a paused command or file change, and answers clarifying questions. Each face has its
 * own: a terminal or a pipe (src/faces/cli), an editor over the Agent Client Protocol (src/faces/acp).
 */
export interface ApprovalPrompter {
  /** The answer, or null when nobody can answer (stdin closed, the turn cancelled): the approval stays pending. */
  ask(request: ApprovalRequest): Promise<ApprovalAnswer | null>;
  /** A clarifying question (ask_user): the answer's text, or null when nobody can answer now. */
  askQuestion(request: QuestionRequest): Promise<string | null>;
  /**
   * An MCP server's form (elicitation), asked while its tool call waits; null when nobody answers. Absent: this face
   * has no person to ask (`--json`, piped input, a replay), and the server is declined.
   */
  askForm?(request: ElicitRequest, signal?: AbortSignal): Promise<ElicitAnswer | null>;
  close(): void;
}
