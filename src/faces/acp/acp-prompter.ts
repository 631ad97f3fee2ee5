import type { AgentContext } from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalRequest, QuestionRequest } from "../../core/index.js";
import type { ApprovalPrompter } from "../../host/prompter.js";
import { logger } from "../../platform/logger.js";
import type { EventUpdates } from "./event-updates.js";
import { approvalAnswerOf, permissionOptions } from "./permission.js";
import { answerText, questionForm, questionMessage } from "./question-answer.js";
import { errorMessage } from "../../platform/error-info.js";
import { askEditorForm } from "./server-form.js";

export interface AcpPrompterOptions {
  client: AgentContext;
  sessionId: string;
  updates: EventUpdates;
  /** The editor offers form elicitation (initialize's client capabilities). */
  elicitation: boolean;
  /** The turn's cancel: a pending request is withdrawn and counts as unanswered. */
  cancel: AbortSignal;
  /** This prompt answers the question the session is waiting on (it ended its last turn with one). */
  answer?: string;
  /** Waits for the updates sent so far: a permission request must not overtake the tool call it names. */
  flush(): Promise<void>;
}

/**
 * Approvals go to the editor as `session/request_permission`; questions as an elicitation form when the editor has
 * one, else the turn ends with the question (null: the session waits) and the next prompt answers it. A request
 * the editor fails or the turn cancels is unanswered, never an error: the session keeps it for the next prompt.
 */
export function createAcpPrompter(o: AcpPrompterOptions): ApprovalPrompter {
  let answer = o.answer;
  return {
    async ask(request: ApprovalRequest): Promise<ApprovalAnswer | null> {
      const toolCall = o.updates.approvalCall(request);
      await o.flush();
      try {
        const response = await o.client.request(
          "session/request_permission",
          { sessionId: o.sessionId, toolCall, options: permissionOptions(request) },
          { cancellationSignal: o.cancel, stopWaitingOnCancel: true },
        );
        return o.cancel.aborted ? null : approvalAnswerOf(response.outcome, request);
      } catch (error) {
        if (!o.cancel.aborted) logger.warn(`session/request_permission failed: ${errorMessage(error)}`);
        return null;
      }
    },
    async askQuestion(request: QuestionRequest): Promise<string | null> {
      if (answer !== undefined) {
        const given = answerText(answer, request);
        answer = undefined;
        return given;
      }
      if (o.elicitation) {
        try {
          const response = await o.client.request("elicitation/create", questionForm(o.sessionId, request), {
            cancellationSignal: o.cancel,
            stopWaitingOnCancel: true,
          });
          const value: unknown =
            response.action === "accept" && "content" in response ? (response.content as Record<string, unknown> | null | undefined)?.answer : undefined;
          if (typeof value === "string" && value.trim()) return answerText(value, request);
        } catch (error) {
          if (!o.cancel.aborted) logger.warn(`elicitation/create failed: ${errorMessage(error)}`);
        }
        if (o.cancel.aborted) return null;
      }
      o.updates.say(questionMessage(request));
      return null;
    },
    async askForm(request, signal) {
      try {
        return await askEditorForm(o, request, signal);
      } catch (error) {
        if (!o.cancel.aborted) logger.warn(`elicitation/create failed: ${errorMessage(error)}`);
        return null;
      }
    },
    close() {},
  };
}
