import type { AgentContext } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { DEFAULT_LIMITS, type SafetyPolicy, type StopReason } from "../../core/index.js";
import { budgetForTurn, turnStartFor } from "../../graph/follow-up.js";
import { setupSessionConfig } from "../../host/config-setup.js";
import { describeModels } from "../../host/model-setup.js";
import { runSession, type SessionRunOptions } from "../../host/session-runner.js";
import { hasCheckpoint, readSessionState } from "../../host/session-state.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, readStoredOptions, type StoredRunOptions } from "../../host/stored-options.js";
import type { Budget } from "../../models/cost/budget.js";
import type { PriceTable } from "../../models/cost/prices.js";
import type { ModelProvider } from "../../models/chat-model.js";
import type { Clock } from "../../platform/clock.js";
import { openRunStore } from "../../sessions/open-run-store.js";
import { queueSettings } from "../../sessions/pending-settings.js";
import type { HeldSessionLock } from "../../sessions/session-records.js";
import { WorkspaceBusyError, WorkspaceLock } from "../../sessions/workspace-lock.js";
import { unpricedModels } from "../../host/budget-prices.js";
import { createAcpPrompter } from "./acp-prompter.js";
import { invalidRequest } from "./request-errors.js";
import type { AcpSession } from "./acp-session.js";
import type { TurnOutcome } from "./stop-reason.js";

export interface TurnRequest {
  session: AcpSession;
  text: string;
  client: AgentContext;
  elicitation: boolean;
  cancel: AbortSignal;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/** Statuses after which the prompt's text starts a new turn of the session (a follow-up instruction). */
const FOLLOWS_UP = new Set(["done", "failed", "limit_reached", "interrupted", "running"]);

/**
 * One `session/prompt`: the first starts the session with the text as its task; later ones are follow-up
 * instructions, except that a session waiting on a question takes the text as the answer, and one waiting on an
 * approval asks it again first (then the text follows up). Runs under the workspace lock, as `run` and `resume` do.
 */
export async function runTurn(t: TurnRequest): Promise<TurnOutcome> {
  const { session } = t;
  const workspaceLock = acquireWorkspace(session.workspace);
  try {
    // The model chosen in the editor (or kept from `resume --model`), for every agent, as `--model` would.
    const chosen = session.settings.model;
    let setup = await setupSessionConfig(chosen ? { model: chosen } : {}, session.workspace, t.env);
    const database = await openRunStore(session.workspace, t.env, t.clock, { create: true });
    if (!database) throw new Error("no session store");
    let lock: HeldSessionLock | null = null;
    try {
      // Held for the whole turn, before its settings change: a process resuming the session elsewhere is refused first.
      lock = await database.lockSession(session.id);
      const row = await database.sessions.get(session.id);
      const limits = { ...DEFAULT_LIMITS, maxPromptTokens: setup.config.limits.maxPromptTokens ?? DEFAULT_LIMITS.maxPromptTokens };
      const stored: StoredRunOptions = row ? readStoredOptions(row.options) : { limits, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS, budget: {} };
      // An endpoint the session was given (`resume --base-url`) stays its endpoint here too.
      if (stored.baseUrl) setup = await setupSessionConfig({ ...(chosen ? { model: chosen } : {}), baseUrl: stored.baseUrl }, session.workspace, t.env);
      const { config, models, safety: configured, prices } = setup;
      // A fresh object: a change from the editor during the turn changes it in place (src/faces/acp/acp-session.ts).
      const { approval, allowNetwork, approveFileChanges, budgetUsd } = session.settings;
      const safety: SafetyPolicy = { ...(stored.safety ?? configured), approval, allowNetwork, approveFileChanges };
      session.useSafety(safety);
      // The editor's budget per prompt (session/set_config_option), kept with the session like `resume --budget-usd`.
      const budget: Budget = { ...stored.budget };
      if (budgetUsd === null) delete budget.usd;
      else budget.usd = budgetUsd;
      const problem = budgetPriceProblem(budget, prices, models.provider);
      if (problem) throw invalidRequest(problem);
      const modelLabel = describeModels(models.settings);
      const options = JSON.stringify({ ...stored, safety, budget, ...(chosen ? { model: chosen } : {}) });
      if (!row) await database.sessions.create({ id: session.id, task: t.text, workspace: session.workspace, model: modelLabel, options });
      const checkpointed = row ? await hasCheckpoint(database, session.id) : false;
      if (row && options !== row.options) {
        await database.sessions.update(session.id, { options, model: modelLabel });
        if (checkpointed) await queueSettings(database, session.id, { safety, limits: stored.limits });
      }
      let stop: StopReason | null = null;
      const run = async (how: { fresh: boolean; followUp?: string; answer?: string }) => {
        // Only a budget counts from the turn's start (src/graph/follow-up.ts); reading the state compiles a graph.
        const budgeted = budget.tokens !== undefined || budget.usd !== undefined;
        const state = budgeted && (await hasCheckpoint(database, session.id)) ? await readSessionState(database, session.id) : null;
        const turnStart = turnStartFor(state, how.followUp !== undefined, prices);
        const prompter = createAcpPrompter({
          client: t.client,
          sessionId: session.id,
          updates: session.updates,
          elicitation: t.elicitation,
          cancel: t.cancel,
          flush: () => session.flush(),
          ...(how.answer !== undefined ? { answer: how.answer } : {}),
        });
        const o: SessionRunOptions = {
          sessionId: session.id,
          workspace: session.workspace,
          task: row?.task ?? t.text,
          limits: stored.limits,
          commandTimeoutMs: stored.commandTimeoutMs,
          fresh: how.fresh,
          resumed: row !== undefined,
          models,
          modelLabel,
          database,
          printer: session.updates,
          clock: t.clock,
          env: t.env,
          safety,
          prompter,
          prices,
          memory: config.memory,
          budget: budgetForTurn(budget, turnStart),
          cwd: session.workspace,
          cancel: t.cancel,
          mcpServers: session.mcpServers,
          onOutcome: (outcome) => (stop = outcome.stop),
          ...(lock ? { lock } : {}),
          ...(how.followUp !== undefined ? { followUp: how.followUp } : {}),
        };
        await runSession(o);
        return session.updates.finishedStatus ?? "interrupted";
      };
      let status: string;
      if (!row || !checkpointed) status = await run({ fresh: true });
      else if (row.status === "awaiting_input") status = await run({ fresh: false, answer: t.text });
      else if (FOLLOWS_UP.has(row.status)) status = await run({ fresh: false, followUp: t.text });
      else status = await run({ fresh: false });
      // A session that had to finish an earlier turn first (no checkpoint yet, an approval asked again) now takes the text.
      const pendingText = row !== undefined && (!checkpointed || row.status === "awaiting_approval");
      if (pendingText && FOLLOWS_UP.has(status) && !t.cancel.aborted) status = await run({ fresh: false, followUp: t.text });
      const error = session.updates.errorLine;
      if (error && status === "interrupted" && !t.cancel.aborted) throw new RequestError(-32603, error);
      return { status, stop, cancelled: t.cancel.aborted };
    } finally {
      await lock?.release();
      await database.close();
    }
  } finally {
    workspaceLock.release();
  }
}

/** Why a budget in dollars cannot be counted for these models (no price for one of them); null when it can. */
export function budgetPriceProblem(budget: Budget, prices: PriceTable, models: Pick<ModelProvider, "describe">): string | null {
  const unpriced = unpricedModels(budget, prices, models);
  if (unpriced.length === 0) return null;
  return `a budget in dollars needs a price for ${unpriced.map((m) => `"${m}"`).join(", ")}: add it to "prices" in mini-cursor.json or MINI_CURSOR_PRICES, or choose no budget`;
}

/** One session runs in a workspace at a time, as with `run`; the editor has no --force, so the line ends differently. */
function acquireWorkspace(workspace: string): WorkspaceLock {
  try {
    return WorkspaceLock.acquire(workspace, { force: false, flag: "--force" });
  } catch (error) {
    if (!(error instanceof WorkspaceBusyError)) throw error;
    // The lock's line is "<who is running>; <what to do in a terminal>": keep who, say what to do here.
    throw new RequestError(-32603, `${error.message.split(";")[0] ?? error.message}; wait for it to finish or stop it, then send the prompt again`);
  }
}
