import type { AgentContext } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { runConversationTurn, TurnRefused } from "../../host/conversation-turn.js";
import type { Clock } from "../../platform/clock.js";
import { WorkspaceBusyError } from "../../sessions/workspace-lock.js";
import { createAcpPrompter } from "./acp-prompter.js";
import { invalidRequest } from "./request-errors.js";
import type { AcpSession } from "./acp-session.js";
import type { TurnOutcome } from "./stop-reason.js";
import { acpEditorFiles } from "./editor-files.js";

export { budgetPriceProblem } from "../../host/conversation-turn.js";

export interface TurnRequest {
  session: AcpSession;
  text: string;
  client: AgentContext;
  elicitation: boolean;
  cancel: AbortSignal;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/**
 * One `session/prompt`: one turn of the session host's conversation (src/host/conversation-turn.ts), with the editor's
 * settings, its permission requests and elicitation forms, and its updates.
 */
export async function runTurn(t: TurnRequest): Promise<TurnOutcome> {
  const { session } = t;
  let result;
  try {
    result = await runConversationTurn({
      sessionId: session.id,
      workspace: session.workspace,
      text: t.text,
      settings: session.settings,
      printer: session.updates,
      prompter: (answer) =>
        createAcpPrompter({
          client: t.client,
          sessionId: session.id,
          updates: session.updates,
          elicitation: t.elicitation,
          cancel: t.cancel,
          flush: () => session.flush(),
          ...(answer !== undefined ? { answer } : {}),
        }),
      cancel: t.cancel,
      env: t.env,
      clock: t.clock,
      mcpServers: session.mcpServers,
      ...editorOf(t),
      // A change from the editor during the turn changes this policy in place (src/faces/acp/acp-session.ts).
      onSafety: (safety) => session.useSafety(safety),
    });
  } catch (error) {
    if (error instanceof TurnRefused) throw invalidRequest(error.message);
    if (!(error instanceof WorkspaceBusyError)) throw error;
    // The lock's line is "<who is running>; <what to do in a terminal>": keep who, say what to do here.
    throw new RequestError(-32603, `${error.message.split(";")[0] ?? error.message}; wait for it to finish or stop it, then send the prompt again`);
  }
  if (result.errorLine && result.status === "interrupted" && !result.cancelled) throw new RequestError(-32603, result.errorLine);
  return { status: result.status, stop: result.stop, cancelled: result.cancelled };
}

/** The editor's buffers for this turn's file tools, when it offers them. */
function editorOf(t: TurnRequest) {
  const editor = acpEditorFiles({ client: t.client, sessionId: t.session.id, abilities: t.session.abilities, cancel: t.cancel, seen: t.session.editorTexts });
  return editor ? { editor } : {};
}
