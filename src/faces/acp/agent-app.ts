import fs from "node:fs";
import path from "node:path";
import { agent, PROTOCOL_VERSION, type AgentApp, type AgentContext, type SessionUpdate } from "@agentclientprotocol/sdk";
import { resolveSessionConfig, setupSessionConfig } from "../../host/config-setup.js";
import { openConversation, saveConversationSettings } from "../../host/conversation-settings.js";
import { hasCheckpoint, readSessionState } from "../../host/session-state.js";
import { readStoredOptions } from "../../host/stored-options.js";
import type { Clock } from "../../platform/clock.js";
import type { McpServerSettings } from "../../platform/config/index.js";
import { openRunStore } from "../../sessions/open-run-store.js";
import { listEndpointModels } from "../../models/model-list.js";
import { newSessionId } from "../../sessions/session-id.js";
import { AcpSession } from "./acp-session.js";
import { editorMcpServers } from "./editor-mcp.js";
import { NO_ABILITIES, type ClientAbilities } from "./editor-files.js";
import { historyUpdates } from "./history-updates.js";
import { promptText } from "./prompt-text.js";
import { readRecordedThread } from "./recorded-thread.js";
import { configOptions, editorSettings, withConfigOption, type EditorSettings } from "./config-options.js";
import { asRequestError, invalidParams, invalidRequest } from "./request-errors.js";
import { budgetPriceProblem, runTurn } from "./run-turn.js";
import { listSessions } from "./session-list.js";
import { approvalModeOf, sessionModes } from "./session-modes.js";
import { stopReasonOf } from "./stop-reason.js";

export interface AcpAgentOptions {
  env: NodeJS.ProcessEnv;
  /** The folder the editor started the agent in: `session/list` without a `cwd` lists its sessions. */
  cwd: string;
  clock: Clock;
  version: string;
}

export interface AcpAgent {
  app: AgentApp;
  /** Cancels every running turn and waits for them to end (the editor went away). */
  shutdown(): Promise<void>;
}

/** `cwd` as ACP requires it: an absolute path to a folder that exists. */
function workspaceOf(cwd: string): string {
  if (!path.isAbsolute(cwd)) throw invalidParams(`cwd must be an absolute path, got "${cwd}"`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    throw invalidParams(`cwd ${cwd} does not exist`);
  }
  if (!stat.isDirectory()) throw invalidParams(`cwd ${cwd} is not a folder`);
  return fs.realpathSync(cwd);
}

/** Wraps a handler so that whatever fails becomes one JSON-RPC error. */
function guarded<P, R>(handler: (context: { params: P; client: AgentContext }) => Promise<R> | R) {
  return async (context: { params: P; client: AgentContext }): Promise<R> => {
    try {
      return await handler(context);
    } catch (error) {
      throw asRequestError(error);
    }
  };
}

/**
 * mini-cursor as an ACP agent: each ACP session is a mini-cursor session (same id, same database, so
 * `mini-cursor sessions`, `resume`, `diff` and `undo` see it), run by the same runner as the CLI's.
 */
export function createAcpAgent(o: AcpAgentOptions): AcpAgent {
  const sessions = new Map<string, AcpSession>();
  const turns = new Set<Promise<unknown>>();
  let elicitation = false;
  let abilities: ClientAbilities = NO_ABILITIES;

  const open = (id: string, workspace: string, settings: EditorSettings, servers: McpServerSettings[], client: AgentContext): AcpSession => {
    const existing = sessions.get(id);
    if (existing?.running) throw invalidRequest(`session ${id} is running a prompt; cancel it first`);
    const session = new AcpSession(id, workspace, settings, servers, client, abilities);
    sessions.set(id, session);
    return session;
  };

  /** New settings: kept with the session first (a failure changes nothing), then the session and its running turn use them. */
  const change = async (session: AcpSession, next: EditorSettings): Promise<void> => {
    await saveConversationSettings({ sessionId: session.id, workspace: session.workspace, env: o.env, clock: o.clock, settings: next });
    session.set(next);
  };

  const app = agent({ name: "mini-cursor" })
    .onRequest(
      "initialize",
      guarded(({ params }) => {
        elicitation = Boolean(params.clientCapabilities?.elicitation?.form);
        const offered = params.clientCapabilities;
        abilities = {
          readTextFile: offered?.fs?.readTextFile === true,
          writeTextFile: offered?.fs?.writeTextFile === true,
          terminal: offered?.terminal === true,
        };
        return {
          // We speak version 1; a client asking for another decides whether it can go on.
          protocolVersion: PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            sessionCapabilities: { list: {} },
            promptCapabilities: { image: false, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: false },
          },
          agentInfo: { name: "mini-cursor", title: "mini-cursor", version: o.version },
          authMethods: [],
        };
      }),
    )
    .onRequest(
      "session/new",
      guarded(async ({ params, client }) => {
        const workspace = workspaceOf(params.cwd);
        const servers = editorMcpServers(params.mcpServers, workspace);
        const { config, safety } = await resolveSessionConfig({}, workspace, o.env);
        const listed = await listEndpointModels(config.model);
        const settings = editorSettings({ safety }, config.model.model, listed);
        const sessionId = newSessionId(o.clock);
        // Kept from the start, with its settings: a thread never prompted is still there after a restart.
        await openConversation({ sessionId, workspace, env: o.env, clock: o.clock, settings, config, safety });
        const session = open(sessionId, workspace, settings, servers, client);
        return { sessionId: session.id, modes: sessionModes(session.mode), configOptions: configOptions(session.settings) };
      }),
    )
    .onRequest(
      "session/load",
      guarded(async ({ params, client }) => {
        const workspace = workspaceOf(params.cwd);
        const servers = editorMcpServers(params.mcpServers, workspace);
        const missing = () => invalidParams(`no session "${params.sessionId}" in ${workspace} (see mini-cursor sessions)`);
        const database = await openRunStore(workspace, o.env, o.clock, { create: false });
        if (!database) throw missing();
        let history: SessionUpdate[];
        let settings: EditorSettings;
        try {
          const row = await database.sessions.get(params.sessionId);
          if (!row) throw missing();
          const stored = readStoredOptions(row.options);
          const { config, safety } = await resolveSessionConfig(stored.baseUrl ? { baseUrl: stored.baseUrl } : {}, workspace, o.env);
          const state = (await hasCheckpoint(database, row.id)) ? await readSessionState(database, row.id) : null;
          const listed = await listEndpointModels(config.model);
          settings = editorSettings(
            { safety: stored.safety ?? state?.safety ?? safety, budgetUsd: stored.budget.usd, model: stored.model },
            config.model.model,
            listed,
          );
          const recorded = state ? await readRecordedThread(database.recordings, row.id) : null;
          history = historyUpdates(row.task, row.status, state, workspace, recorded);
        } finally {
          await database.close();
        }
        const session = open(params.sessionId, workspace, settings, servers, client);
        for (const update of history) session.send(update);
        await session.flush();
        return { modes: sessionModes(session.mode), configOptions: configOptions(session.settings) };
      }),
    )
    .onRequest(
      "session/list",
      guarded(({ params }) => {
        const workspace = params.cwd ? workspaceOf(params.cwd) : o.cwd;
        return listSessions(workspace, !params.cwd, params.cursor, o.env, o.clock);
      }),
    )
    .onRequest(
      "session/prompt",
      guarded(async ({ params, client }) => {
        const session = sessions.get(params.sessionId);
        if (!session) throw invalidParams(`unknown session "${params.sessionId}": start one with session/new or open it with session/load`);
        const text = promptText(params.prompt);
        if (!text) throw invalidParams("the prompt has no text");
        const cancel = session.beginTurn();
        if (!cancel) throw invalidRequest(`session ${session.id} is already running a prompt; wait for it or send session/cancel`);
        const turn = runTurn({ session, text, client, elicitation, cancel: cancel.signal, env: o.env, clock: o.clock });
        turns.add(turn);
        try {
          const outcome = await turn;
          return { stopReason: stopReasonOf(outcome) };
        } finally {
          turns.delete(turn);
          // The response comes after every update of the turn.
          await session.flush();
          session.endTurn();
        }
      }),
    )
    .onRequest(
      "session/set_mode",
      guarded(async ({ params }) => {
        const session = sessions.get(params.sessionId);
        if (!session) throw invalidParams(`unknown session "${params.sessionId}"`);
        const mode = approvalModeOf(params.modeId);
        if (!mode)
          throw invalidParams(
            `unknown mode "${params.modeId}"; modes: ${sessionModes(session.mode)
              .availableModes.map((m) => m.id)
              .join(", ")}`,
          );
        await change(session, { ...session.settings, approval: mode });
        // Editors that show the options rather than the modes see the change there too.
        session.send({ sessionUpdate: "config_option_update", configOptions: configOptions(session.settings) });
        await session.flush();
        return {};
      }),
    )
    .onRequest(
      "session/set_config_option",
      guarded(async ({ params }) => {
        const session = sessions.get(params.sessionId);
        if (!session) throw invalidParams(`unknown session "${params.sessionId}"`);
        const before = session.mode;
        const next = withConfigOption(session.settings, params.configId, params.value);
        if (next.budgetUsd !== null && next.budgetUsd !== session.settings.budgetUsd) {
          // Refused now rather than at the next prompt: a budget in dollars needs the models' prices.
          const { models, prices } = await setupSessionConfig(next.model ? { model: next.model } : {}, session.workspace, o.env);
          const problem = budgetPriceProblem({ usd: next.budgetUsd }, prices, models.provider);
          if (problem) throw invalidParams(problem);
        }
        await change(session, next);
        // The approval option is the session's mode: editors that show modes see the change there too.
        if (session.mode !== before) {
          session.send({ sessionUpdate: "current_mode_update", currentModeId: session.mode });
          await session.flush();
        }
        return { configOptions: configOptions(session.settings) };
      }),
    )
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    async shutdown() {
      for (const session of sessions.values()) session.cancel();
      await Promise.allSettled([...turns]);
    },
  };
}
