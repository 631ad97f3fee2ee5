import { answeredText, ASK_USER_TOOL_NAME, type ApprovalAnswer, type ApprovalRequest, type EventSink, type QuestionRequest } from "../../core/index.js";
import type { ReplayProvider } from "../../models/replay-model.js";
import type { ApprovalPrompter } from "../../host/prompter.js";

/** How src/agents/middleware/approval.ts tells the model a person rejected the call (and why). */
const REJECTED = /the user rejected this [\w ]+?(?:: ([\s\S]*?))?\. Do not repeat it/;

/**
 * A replay's approvals answered as the person answered them in the recorded session: the recording's next request
 * holds the call's result, which says whether it was rejected (and why) or ran. An approval the recording cannot
 * answer (the replay took another path) goes to the person as usual. Clarifying questions likewise: the planner's and
 * a sub-agent's alike are answered from the recorded ask_user result, and only one the recording lacks is asked.
 */
export function replayPrompter(provider: ReplayProvider, person: ApprovalPrompter, events: EventSink): ApprovalPrompter {
  return {
    ask(request: ApprovalRequest): Promise<ApprovalAnswer | null> {
      const recorded = provider.recordedResult(request.tool, request.subject);
      if (!recorded) return person.ask(request);
      const rejected = REJECTED.exec(recorded.content);
      const answer: ApprovalAnswer = rejected ? { decision: "reject", reason: rejected[1] ?? "" } : { decision: "approve" };
      events.emit({
        type: "notice",
        level: "info",
        message: `Answered from the recording: ${answer.decision === "reject" ? `rejected${answer.reason ? ` (${answer.reason})` : ""}` : "approved"}.`,
      });
      return Promise.resolve(answer);
    },
    askQuestion(request: QuestionRequest): Promise<string | null> {
      // The asking call is the last answered one, and the next request holds its ask_user result: for a sub-agent
      // the next call of its run, for the planner its next call (src/graph/nodes/planner/planner-agent.ts puts the
      // question and the answer after its prompt).
      const recorded = provider.recordedResult(ASK_USER_TOOL_NAME, request.question);
      const prefix = answeredText("");
      if (!recorded?.content.startsWith(prefix)) return person.askQuestion(request);
      const answer = recorded.content.slice(prefix.length);
      events.emit({ type: "notice", level: "info", message: `Answered from the recording: ${answer}` });
      return Promise.resolve(answer);
    },
    close: () => person.close(),
  };
}
