import path from "node:path";
import { writeGrantRefusal, type WriteGrant } from "../core/index.js";
import type { LandingCheck } from "../services/workspace-files/atomic-write.js";
import { isUsableRealPath } from "../services/workspace-files/workspace-path.js";

/**
 * What this call was approved for: the call's approval decision in the agent's state (src/agents/middleware/approval.ts
 * records it by tool-call id; LangChain's tool node hands a tool the state and its call id). A landing there is the
 * one place a person approved; none means approved by rule or mode.
 */
function grantOf(config: unknown): WriteGrant | undefined {
  if (typeof config !== "object" || config === null) return undefined;
  const { state, toolCallId } = config as { state?: unknown; toolCallId?: unknown };
  if (typeof state !== "object" || state === null || typeof toolCallId !== "string") return undefined;
  const decisions: unknown = (state as { decisions?: unknown }).decisions;
  const decision: unknown = typeof decisions === "object" && decisions !== null ? (decisions as Record<string, unknown>)[toolCallId] : undefined;
  const landing: unknown = typeof decision === "object" && decision !== null ? (decision as { landing?: unknown }).landing : undefined;
  return typeof landing === "string" ? { landing } : {};
}

/**
 * The check a file tool makes on what its write actually lands on (the real path of the folder it holds open):
 * inside the workspace, not mini-cursor's state, and covered by the call's grant. No grant (a tool used on its own)
 * is the strictest: approved by nobody, so never a protected place.
 */
export function landingCheck(root: string, config: unknown, asked: string): LandingCheck {
  const grant = grantOf(config);
  return (abs) => {
    if (!isUsableRealPath(root, abs))
      return `the path changed while it was being written: "${asked}" now lands outside the files the tools may change; nothing was written.`;
    return writeGrantRefusal(grant, path.relative(root, abs), asked);
  };
}
