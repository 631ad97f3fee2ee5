import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalRequest } from "../../core/index.js";

/** The three answers of `session/request_permission`, which map onto ours: approve, always (the pattern), reject. */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    { optionId: "allow_always", name: `Always allow ${request.suggestedPattern}`, kind: "allow_always" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ];
}

/** The editor's answer as ours; null when it was cancelled (the approval stays pending for the next prompt). */
export function approvalAnswerOf(outcome: RequestPermissionOutcome, request: ApprovalRequest): ApprovalAnswer | null {
  if (outcome.outcome !== "selected") return null;
  switch (outcome.optionId) {
    case "allow_once":
      return { decision: "approve" };
    case "allow_always":
      return { decision: "always", pattern: request.suggestedPattern };
    case "reject_once":
    case "reject_always":
      return { decision: "reject", reason: "rejected in the editor" };
    default:
      // An option we did not offer: refusing is the safe reading.
      return { decision: "reject", reason: `unknown answer "${outcome.optionId}"` };
  }
}
