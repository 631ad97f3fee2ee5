import type { SessionModeState } from "@agentclientprotocol/sdk";
import { APPROVAL_MODES, type ApprovalMode } from "../../core/index.js";

export const MODE_DESCRIPTIONS: Record<ApprovalMode, { name: string; description: string }> = {
  ask: { name: "Ask", description: "Asks before every command (and MCP tool that may change things)" },
  auto: { name: "Auto", description: "Sandboxed commands run without asking; rules and unsandboxed tools still ask" },
  "read-only": { name: "Read-only", description: "No file changes and no commands" },
};

/** Our approval modes are the session's ACP modes, which the editor can switch between prompts. */
export function sessionModes(current: ApprovalMode): SessionModeState {
  return { currentModeId: current, availableModes: APPROVAL_MODES.map((id) => ({ id, ...MODE_DESCRIPTIONS[id] })) };
}

export function approvalModeOf(modeId: string): ApprovalMode | null {
  return (APPROVAL_MODES as readonly string[]).includes(modeId) ? (modeId as ApprovalMode) : null;
}
