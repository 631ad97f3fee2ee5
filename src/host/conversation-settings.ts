import { DEFAULT_LIMITS, type ApprovalMode, type SafetyPolicy } from "../core/index.js";
import type { Clock } from "../platform/clock.js";
import type { ResolvedConfig } from "../platform/config/index.js";
import { openSessionRecords } from "../sessions/open-records.js";
import { resolveSessionConfig } from "./config-setup.js";
import { describeModels } from "./model-setup.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, readStoredOptions, type StoredRunOptions } from "./stored-options.js";

/** The settings a face keeps for a conversation (an editor's config options, the terminal's slash commands). */
export interface ConversationSettings {
  /** The model for every agent, as `--model` would; null or absent: the configured one. */
  model?: string | null;
  approval: ApprovalMode;
  allowNetwork: boolean;
  approveFileChanges: boolean;
  /** A budget in dollars for each turn; null: none (a stored one is dropped); absent: the session's own. */
  budgetUsd?: number | null;
}

/** Where a conversation's session is kept. */
export interface ConversationPlace {
  sessionId: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/** A new session's options before a face's settings: the default limits with the configured prompt budget. */
export function initialStoredOptions(config: ResolvedConfig): StoredRunOptions {
  const limits = { ...DEFAULT_LIMITS, maxPromptTokens: config.limits.maxPromptTokens ?? DEFAULT_LIMITS.maxPromptTokens };
  return { limits, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS, budget: {} };
}

/**
 * The session's options with the face's settings in them: the approval mode, network and file-change approvals over
 * the stored safety policy (or the configured one), the budget in dollars, the chosen model. What a turn runs with,
 * and what `session/load`, `resume` and the next process read back.
 */
export function withConversationSettings(
  stored: StoredRunOptions,
  configured: SafetyPolicy,
  s: ConversationSettings,
): StoredRunOptions & { safety: SafetyPolicy } {
  const safety: SafetyPolicy = {
    ...(stored.safety ?? configured),
    approval: s.approval,
    allowNetwork: s.allowNetwork,
    approveFileChanges: s.approveFileChanges,
  };
  const budget = { ...stored.budget };
  if (s.budgetUsd === null) delete budget.usd;
  else if (s.budgetUsd !== undefined) budget.usd = s.budgetUsd;
  return { ...stored, safety, budget, ...(s.model ? { model: s.model } : {}) };
}

/**
 * Opens a conversation that has no task yet (an editor's `session/new`): its session row, `new`, with the face's
 * settings, so that it is found after a restart (`session/load`) and listed by `mini-cursor sessions`. The first
 * message becomes its task (src/host/conversation-turn.ts).
 */
export async function openConversation(p: ConversationPlace & { settings: ConversationSettings; config: ResolvedConfig; safety: SafetyPolicy }): Promise<void> {
  const { config, safety } = p;
  const records = await openSessionRecords(p.workspace, p.env, p.clock, { create: true });
  if (!records) throw new Error("no session store");
  try {
    const options = withConversationSettings(initialStoredOptions(config), safety, p.settings);
    await records.sessions.create({
      id: p.sessionId,
      task: "",
      workspace: p.workspace,
      model: describeModels(config.model),
      options: JSON.stringify(options),
      status: "new",
    });
  } finally {
    await records.close();
  }
}

/**
 * Keeps a face's changed settings with the session the moment they change (not at its next message): a restart
 * finds them. False when the session has no row (deleted meanwhile): the next message makes one with them. A turn
 * running now has them already (the face changes its policy in place) and stores them again when the next one starts.
 */
export async function saveConversationSettings(p: ConversationPlace & { settings: ConversationSettings }): Promise<boolean> {
  const records = await openSessionRecords(p.workspace, p.env, p.clock, { create: false });
  if (!records) return false;
  try {
    const row = await records.sessions.get(p.sessionId);
    if (!row) return false;
    const stored = readStoredOptions(row.options);
    // Only a session stored before its safety policy was kept here needs the configured one underneath.
    const configured = stored.safety ?? (await resolveSessionConfig(stored.baseUrl ? { baseUrl: stored.baseUrl } : {}, p.workspace, p.env)).safety;
    const options = JSON.stringify(withConversationSettings(stored, configured, p.settings));
    if (options !== row.options) await records.sessions.update(p.sessionId, { options });
    return true;
  } finally {
    await records.close();
  }
}
