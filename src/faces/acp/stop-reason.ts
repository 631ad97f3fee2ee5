import type { StopReason as AcpStopReason } from "@agentclientprotocol/sdk";
import type { StopReason } from "../../core/index.js";

/** How a turn ended, as the session runner reported it. */
export interface TurnOutcome {
  /** The session's status after the turn (`done`, `failed`, `limit_reached`, `interrupted`, `awaiting_*`). */
  status: string;
  stop: StopReason | null;
  /** The editor sent `session/cancel` during the turn. */
  cancelled: boolean;
}

/**
 * Our outcomes as ACP stop reasons: a cancel is `cancelled` whatever the session was doing; a limit or budget is
 * `max_turn_requests`; a planner that gave up on the task is a `refusal`; everything else ends the turn normally
 * (a failure, a question or an approval left for the next prompt are said in the turn's messages).
 */
export function stopReasonOf(outcome: TurnOutcome): AcpStopReason {
  if (outcome.cancelled) return "cancelled";
  if (outcome.status === "limit_reached") return "max_turn_requests";
  if (outcome.status === "failed" && outcome.stop?.kind === "gave_up") return "refusal";
  return "end_turn";
}
