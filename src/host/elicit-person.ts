import type { EventSink } from "../core/index.js";
import type { Elicit } from "../services/mcp/index.js";
import type { ApprovalPrompter } from "./prompter.js";

/**
 * How a session's MCP servers reach its person during a tool call (elicitation): through the face's prompter, told
 * to the views first (a live view stops redrawing while the form is asked). A face without a person to ask (no
 * askForm: `--json`, piped input, a replay) declines; nobody answering (stdin closed, the turn stopped) cancels.
 */
export function elicitThrough(prompter: ApprovalPrompter, printer: EventSink): Elicit {
  return async (request, signal) => {
    if (!prompter.askForm) return { action: "decline" };
    printer.emit({ type: "form_asked", server: request.server, message: request.message, fields: request.fields.map((f) => ({ title: f.title })) });
    const answer = (await prompter.askForm(request, signal)) ?? { action: "cancel" as const };
    printer.emit({ type: "form_answered", server: request.server, action: answer.action });
    return answer;
  };
}
