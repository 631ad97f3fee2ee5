import path from "node:path";
import { writeGrantRefusal, type WriteGrant } from "../core/index.js";
import type { LandingCheck } from "./atomic-write.js";
import { isUsableRealPath } from "./workspace-path.js";

/** The key of a file tool call's config that carries what the call was approved for (src/agents/middleware/tool-calls.ts). */
export const WRITE_GRANT_KEY = "writeGrant";

function grantOf(config: unknown): WriteGrant | undefined {
  const configurable: unknown = typeof config === "object" && config !== null ? (config as { configurable?: unknown }).configurable : undefined;
  const grant: unknown = typeof configurable === "object" && configurable !== null ? (configurable as Record<string, unknown>)[WRITE_GRANT_KEY] : undefined;
  if (typeof grant !== "object" || grant === null) return undefined;
  const landing: unknown = (grant as { landing?: unknown }).landing;
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
    if (!isUsableRealPath(root, abs)) return `the path changed while it was being written: "${asked}" now lands outside the files the tools may change; nothing was written.`;
    return writeGrantRefusal(grant, path.relative(root, abs), asked);
  };
}
