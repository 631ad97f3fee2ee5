import { Command } from "@langchain/langgraph";
import { type ApprovalRequest, isApprovalRequest, isQuestionRequest, type QuestionRequest } from "../core/index.js";

/**
 * The approval or question a paused run returned, if it paused for one, and how to answer exactly that pause. The
 * answer is addressed to the interrupt's id: a plain `Command({ resume })` is kept in the session graph's checkpoint
 * as an unaddressed resume value, and when the same sub-agent run pauses again before its step ends, the next
 * `resume` (which continues with `invoke(null)`) would hand that old answer to the new pause, running a command
 * nobody approved (LangGraph applies an unaddressed value to the first pause that takes one).
 */
export function pendingRequest(result: unknown): { request: ApprovalRequest | QuestionRequest; resumeWith: (answer: unknown) => Command } | null {
  if (typeof result !== "object" || result === null || !("__interrupt__" in result)) return null;
  const interrupts = (result as { __interrupt__: unknown }).__interrupt__;
  if (!Array.isArray(interrupts)) return null;
  for (const item of interrupts) {
    if (typeof item !== "object" || item === null) continue;
    const value: unknown = "value" in item ? item.value : undefined;
    const id: unknown = "id" in item ? item.id : undefined;
    if (isApprovalRequest(value) || isQuestionRequest(value)) {
      return { request: value, resumeWith: (answer) => new Command({ resume: typeof id === "string" && id ? { [id]: answer } : answer }) };
    }
  }
  return null;
}
