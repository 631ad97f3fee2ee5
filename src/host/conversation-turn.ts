import { type EventSink, type ProgressEvent, type SafetyPolicy, type StopReason } from "../core/index.js";
import { budgetForTurn, turnStartFor } from "../graph/follow-up.js";
import type { Budget } from "../models/cost/budget.js";
import type { PriceTable } from "../models/cost/prices.js";
import type { ModelProvider } from "../models/chat-model.js";
import type { Clock } from "../platform/clock.js";
import type { McpServerSettings } from "../platform/config/index.js";
import { openRunStore } from "../sessions/open-run-store.js";
import { queueSettings } from "../sessions/pending-settings.js";
import type { HeldSessionLock } from "../sessions/session-records.js";
import { WorkspaceLock } from "../sessions/workspace-lock.js";
import { unpricedModels } from "./budget-prices.js";
import { setupSessionConfig } from "./config-setup.js";
import { describeModels } from "./model-setup.js";
import type { ApprovalPrompter } from "./prompter.js";
import type { EditorFiles } from "../services/workspace-files/editor-files.js";
import { runSession, type SessionRunOptions } from "./session-runner.js";
import type { GraphStreamSink } from "./session-options.js";
import { hasCheckpoint, readSessionState } from "./session-state.js";
import { initialStoredOptions, withConversationSettings, type ConversationSettings } from "./conversation-settings.js";
import { readStoredOptions, type StoredRunOptions } from "./stored-options.js";

export type { ConversationSettings } from "./conversation-settings.js";

/** One message of a conversation: the editor's `session/prompt`, a line typed in `mini-cursor chat`. */
export interface TurnRequest {
  sessionId: string;
  workspace: string;
  text: string;
  settings: ConversationSettings;
  printer: EventSink;
  /** The face's prompter for this turn; `answer` is the text when it answers the question the session waits on. */
  prompter(answer: string | undefined): ApprovalPrompter;
  /** Stops the turn at its next safe point (the session stays resumable). */
  cancel: AbortSignal;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** The editor's buffers, when the face has an editor that offers them (ACP's fs methods). */
  editor?: EditorFiles;
  /** Servers the face adds to the configured ones (an editor's). */
  mcpServers?: readonly McpServerSettings[];
  /** The turn's safety policy, once made: a face that changes settings mid-turn changes this object in place. */
  onSafety?(safety: SafetyPolicy): void;
  /** The graph's stream, chunk by chunk (an API client's run: src/faces/serve). */
  streamTo?: GraphStreamSink;
}

export interface TurnResult {
  /** How the session's last run of the turn ended: done, failed, limit_reached, interrupted, awaiting_*. */
  status: string;
  stop: StopReason | null;
  cancelled: boolean;
  /** The error line that stopped the turn, when one did (the endpoint down, the database gone). */
  errorLine: string | null;
}

/** A turn the settings cannot run (a budget in dollars for a model without a price): nothing was changed. */
export class TurnRefused extends Error {}

/** Statuses after which a message starts a new turn of the session (a follow-up instruction). */
const FOLLOWS_UP = new Set(["done", "failed", "limit_reached", "interrupted", "running"]);

/**
 * One message of a conversation, the same for every face: the first starts the session with the text as its task;
 * later ones are follow-up instructions, except that a session waiting on a question takes the text as the answer,
 * and one waiting on an approval asks it again first (then the text follows up). Runs under the workspace lock
 * (WorkspaceBusyError when another session holds it) and the session's lock, as `run` and `resume` do.
 */
export async function runConversationTurn(t: TurnRequest): Promise<TurnResult> {
  const workspaceLock = WorkspaceLock.acquire(t.workspace, { force: false, flag: "--force" });
  const outcome = trackOutcome(t.printer);
  try {
    const chosen = t.settings.model ?? undefined;
    let setup = await setupSessionConfig(chosen ? { model: chosen } : {}, t.workspace, t.env);
    const database = await openRunStore(t.workspace, t.env, t.clock, { create: true });
    if (!database) throw new Error("no session store");
    let lock: HeldSessionLock | null = null;
    try {
      // Held for the whole turn, before its settings change: a process resuming the session elsewhere is refused first.
      lock = await database.lockSession(t.sessionId);
      const found = await database.sessions.get(t.sessionId);
      const stored: StoredRunOptions = found ? readStoredOptions(found.options) : initialStoredOptions(setup.config);
      // An endpoint the session was given (`resume --base-url`) stays its endpoint here too.
      if (stored.baseUrl) setup = await setupSessionConfig({ ...(chosen ? { model: chosen } : {}), baseUrl: stored.baseUrl }, t.workspace, t.env);
      const { config, models, safety: configured, prices } = setup;
      const next = withConversationSettings(stored, configured, t.settings);
      // A fresh object: a face that changes settings during the turn changes it in place.
      const safety: SafetyPolicy = { ...next.safety };
      t.onSafety?.(safety);
      const budget: Budget = next.budget;
      const problem = budgetPriceProblem(budget, prices, models.provider);
      if (problem) throw new TurnRefused(problem);
      const modelLabel = describeModels(models.settings);
      const options = JSON.stringify(next);
      // A session opened without a task (`new`, an editor's session/new) starts with this message as its task.
      const row = found?.status === "new" ? undefined : found;
      if (!found) await database.sessions.create({ id: t.sessionId, task: t.text, workspace: t.workspace, model: modelLabel, options });
      else if (!row) await database.sessions.update(t.sessionId, { task: t.text, status: "running", options, model: modelLabel });
      const checkpointed = row ? await hasCheckpoint(database, t.sessionId) : false;
      if (row && options !== row.options) await database.sessions.update(t.sessionId, { options, model: modelLabel });
      // The face may have stored its settings already (when they changed): the state gets them with every turn.
      if (checkpointed) await queueSettings(database, t.sessionId, { safety, limits: stored.limits });
      let stop: StopReason | null = null;
      const run = async (how: { fresh: boolean; followUp?: string; answer?: string }) => {
        // Only a budget counts from the turn's start (src/graph/follow-up.ts); reading the state compiles a graph.
        const budgeted = budget.tokens !== undefined || budget.usd !== undefined;
        const state = budgeted && (await hasCheckpoint(database, t.sessionId)) ? await readSessionState(database, t.sessionId) : null;
        const turnStart = turnStartFor(state, how.followUp !== undefined, prices);
        const o: SessionRunOptions = {
          sessionId: t.sessionId,
          workspace: t.workspace,
          task: row?.task ?? t.text,
          limits: stored.limits,
          commandTimeoutMs: stored.commandTimeoutMs,
          fresh: how.fresh,
          resumed: row !== undefined,
          models,
          modelLabel,
          database,
          printer: outcome.printer,
          clock: t.clock,
          env: t.env,
          safety,
          prompter: t.prompter(how.answer),
          prices,
          memory: config.memory,
          budget: budgetForTurn(budget, turnStart),
          cwd: t.workspace,
          cancel: t.cancel,
          ...(t.mcpServers ? { mcpServers: t.mcpServers } : {}),
          ...(t.editor ? { editor: t.editor } : {}),
          onOutcome: (ended) => (stop = ended.stop),
          ...(lock ? { lock } : {}),
          ...(how.followUp !== undefined ? { followUp: how.followUp } : {}),
          ...(t.streamTo ? { streamTo: t.streamTo } : {}),
        };
        outcome.reset();
        await runSession(o);
        return outcome.status ?? "interrupted";
      };
      let status: string;
      if (!row || !checkpointed) status = await run({ fresh: true });
      else if (row.status === "awaiting_input") status = await run({ fresh: false, answer: t.text });
      else if (FOLLOWS_UP.has(row.status)) status = await run({ fresh: false, followUp: t.text });
      else status = await run({ fresh: false });
      // A session that had to finish an earlier turn first (no checkpoint yet, an approval asked again) now takes the text.
      // No text (an API client's answer to the approval, given through the prompter): nothing follows up.
      const pendingText = row !== undefined && t.text !== "" && (!checkpointed || row.status === "awaiting_approval");
      if (pendingText && FOLLOWS_UP.has(status) && !t.cancel.aborted) status = await run({ fresh: false, followUp: t.text });
      return { status, stop, cancelled: t.cancel.aborted, errorLine: outcome.errorLine };
    } finally {
      await lock?.release();
      await database.close();
    }
  } finally {
    workspaceLock.release();
  }
}

/** The face's printer, noting how each run ended and the error line that stopped it. */
function trackOutcome(printer: EventSink): { printer: EventSink; status: string | null; errorLine: string | null; reset(): void } {
  const tracked = {
    status: null as string | null,
    errorLine: null as string | null,
    reset() {
      tracked.status = null;
      tracked.errorLine = null;
    },
    printer: {
      emit(event: ProgressEvent) {
        if (event.type === "notice" && event.level === "error") tracked.errorLine = event.message;
        if (event.type === "session_finished") tracked.status = event.status;
        printer.emit(event);
      },
    },
  };
  return tracked;
}

/** Why a budget in dollars cannot be counted for these models (no price for one of them); null when it can. */
export function budgetPriceProblem(budget: Budget, prices: PriceTable, models: Pick<ModelProvider, "describe">): string | null {
  const unpriced = unpricedModels(budget, prices, models);
  if (unpriced.length === 0) return null;
  return `a budget in dollars needs a price for ${unpriced.map((m) => `"${m}"`).join(", ")}: add it to "prices" in mini-cursor.json or MINI_CURSOR_PRICES, or choose no budget`;
}
