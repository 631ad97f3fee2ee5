import { approvalModeSchema, safetyPolicySchema, type SafetyPolicy } from "../safety/policy.js";
import { ConfigError, loadSafetyConfig } from "../safety/config.js";
import { createLinePrompter, type ApprovalPrompter } from "./approval-prompt.js";
import { UsageError } from "./exit-codes.js";
import type { CliIo } from "./io.js";

export interface SafetyFlags {
  approval?: string;
  approveFileChanges?: boolean;
  allowNetwork?: boolean;
}

/** Flag, then MINI_CURSOR_APPROVAL, then the project and user config files, then "ask". */
export function resolveSafety(flags: SafetyFlags, workspace: string, env: NodeJS.ProcessEnv): SafetyPolicy {
  let config;
  try {
    config = loadSafetyConfig(workspace, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const rawMode = flags.approval ?? (env.MINI_CURSOR_APPROVAL || undefined) ?? config.approval;
  const mode = approvalModeSchema.safeParse(rawMode ?? "ask");
  if (!mode.success) throw new UsageError(`--approval must be ask, auto or read-only, got "${String(rawMode)}"`);
  return safetyPolicySchema.parse({
    approval: mode.data,
    approveFileChanges: flags.approveFileChanges ?? config.approveFileChanges ?? false,
    allow: config.commands.allow,
    deny: config.commands.deny,
    allowNetwork: flags.allowNetwork ?? config.network ?? false,
  });
}

/** Answers come from stdin; a prompt is shown only to a person at a terminal in human mode. */
export function makePrompter(io: CliIo, json: boolean): ApprovalPrompter {
  return createLinePrompter(io.stdin, io.stdout, Boolean(io.stdin.isTTY) && !json);
}
