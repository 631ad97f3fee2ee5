import { render } from "ink";
import { createElement } from "react";
import { APPROVAL_MODES, type ApprovalMode } from "../../../core/index.js";
import { runConversationTurn, TurnRefused, type ConversationSettings } from "../../../host/conversation-turn.js";
import { resolveSessionConfig } from "../../../host/config-setup.js";
import { saveConversationSettings } from "../../../host/conversation-settings.js";
import { readStoredOptions } from "../../../host/stored-options.js";
import type { Clock } from "../../../platform/clock.js";
import { errorMessage } from "../../../platform/error-info.js";
import { openRunStore } from "../../../sessions/open-run-store.js";
import { newSessionId } from "../../../sessions/session-id.js";
import type { SessionRow } from "../../../sessions/session-store.js";
import { WorkspaceBusyError } from "../../../sessions/workspace-lock.js";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { CHAT_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { ChatApp } from "./chat-app.js";
import { ChatController } from "./chat-controller.js";
import { loadCustomCommands } from "./custom-commands.js";
import { InputHistory } from "./history.js";
import { expandMentions } from "./mentions.js";
import { BUILT_IN_COMMANDS, customSlashCommand } from "./slash-commands.js";

const CHAT_OPTIONS = {
  ...COMMON_OPTIONS,
  ...MODEL_OPTIONS,
  continue: { type: "boolean", short: "c" },
  resume: { type: "boolean", short: "r" },
  approval: { type: "string" },
} as const;

/** The share of the context budget the files of @mentions may fill, in characters (about four per token). */
const MENTION_SHARE = 0.25;

/**
 * `mini-cursor` (or `mini-cursor chat`) at a terminal: one conversation in the workspace, each message one turn of one
 * checkpointed session, on the session host every face uses (src/host/conversation-turn.ts). `-c` goes on with the
 * latest session, `-r` picks one from a list. Without a terminal it says to use `run`.
 */
export async function chatCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, CHAT_OPTIONS, "chat");
  if (values.help) {
    io.stdout.write(`${CHAT_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 0)
    throw new UsageError(`chat takes no task on its command line; type it at the prompt, or use mini-cursor run "${positionals.join(" ")}"`);
  if (values.json) throw new UsageError("chat is for a person at a terminal; for --json use mini-cursor run and resume --message");
  if (!io.stdin.isTTY || !io.stdout.isTTY) {
    throw new UsageError('a conversation needs a terminal; in scripts use mini-cursor run "<task>" and mini-cursor resume --message "<follow-up>"');
  }
  const approval = values.approval;
  if (approval !== undefined && !(APPROVAL_MODES as readonly string[]).includes(approval)) {
    throw new UsageError(`--approval must be one of ${APPROVAL_MODES.join(", ")}, got "${approval}"`);
  }
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const { config, safety } = await resolveSessionConfig(
    { ...(values.model ? { model: values.model } : {}), ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}) },
    workspace,
    io.env,
  );
  const recent = values.continue || values.resume ? await recentSessions(workspace, io, clock) : [];
  if ((values.continue || values.resume) && recent.length === 0) throw new UsageError(`no sessions in ${workspace} yet; mini-cursor starts a new one`);
  const continued = values.continue ? recent[0] : undefined;
  // A session's own settings (kept with it by resume, /model, /approval), under what this command line says.
  const settingsOf = (row: SessionRow | undefined): ConversationSettings => {
    const stored = row ? readStoredOptions(row.options) : undefined;
    return {
      ...(values.model ? { model: values.model } : stored?.model ? { model: stored.model } : {}),
      approval: (approval as ApprovalMode | undefined) ?? stored?.safety?.approval ?? safety.approval,
      allowNetwork: stored?.safety?.allowNetwork ?? safety.allowNetwork,
      approveFileChanges: stored?.safety?.approveFileChanges ?? safety.approveFileChanges,
    };
  };
  const settings = settingsOf(continued);
  const custom = await loadCustomCommands(
    workspace,
    BUILT_IN_COMMANDS.map((c) => c.name),
  );
  const commands = [...BUILT_IN_COMMANDS, ...custom.commands.map(customSlashCommand)];
  const color = !io.env.NO_COLOR;
  const maxMentionChars = Math.floor((config.limits.maxPromptTokens ?? 32_000) * 4 * MENTION_SHARE);
  let exitCode: number = EXIT.done;
  let leave = (): void => undefined;
  const left = new Promise<void>((resolve) => (leave = resolve));
  const controller = new ChatController({
    workspace,
    env: io.env,
    clock,
    sessionId: continued?.id ?? newSessionId(clock),
    settings,
    runTurn: runConversationTurn,
    newSessionId: () => newSessionId(clock),
    commands,
    expand: (text) => expandMentions(workspace, text, maxMentionChars),
    color,
    onLeave: (code) => {
      exitCode = code;
      leave();
    },
    describeError,
    saveSettings: async (sessionId, changed) => void (await saveConversationSettings({ sessionId, workspace, env: io.env, clock, settings: changed })),
    adoptSession: async (id) => {
      const row = await sessionRow(workspace, id, io, clock);
      if (!row) throw new UsageError(`no session "${id}" in ${workspace} (see /sessions)`);
      const next = settingsOf(row);
      delete settings.model;
      Object.assign(settings, next);
    },
  });
  for (const problem of custom.problems) controller.print(`⚠ ${problem}`);
  if (continued) controller.print(`Going on with session ${continued.id} (${continued.status}): ${oneLine(continued.task)}`);
  if (values.resume) controller.pick(recent.map((s) => ({ id: s.id, label: `${s.status.padEnd(17)} ${oneLine(s.task)}` })));
  const app = render(
    createElement(ChatApp, {
      controller,
      history: InputHistory.load(workspace),
      workspace,
      commandNames: commands.map((c) => c.name),
      color,
      now: () => clock.now(),
    }),
    { exitOnCtrlC: false, stdout: process.stdout, stdin: process.stdin },
  );
  await left;
  app.unmount();
  await app.waitUntilExit();
  return exitCode;
}

async function recentSessions(workspace: string, io: CliIo, clock: Clock): Promise<SessionRow[]> {
  const database = await openRunStore(workspace, io.env, clock, { create: false });
  if (!database) return [];
  try {
    // As `resume` takes the latest: a thread opened in an editor and never prompted has nothing to go on with.
    return (await database.sessions.list({ limit: 20 })).filter((s) => s.status !== "new");
  } finally {
    await database.close();
  }
}

async function sessionRow(workspace: string, id: string, io: CliIo, clock: Clock): Promise<SessionRow | undefined> {
  const database = await openRunStore(workspace, io.env, clock, { create: false });
  if (!database) return undefined;
  try {
    return await database.sessions.get(id);
  } finally {
    await database.close();
  }
}

/** An error of a turn as one line: whose session holds the workspace, a budget that cannot count, else the message. */
function describeError(error: unknown): string {
  if (error instanceof WorkspaceBusyError) return `${error.message.split(";")[0] ?? error.message}; wait for it to finish, or stop it, then send again`;
  if (error instanceof TurnRefused) return error.message;
  return errorMessage(error);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 70 ? `${flat.slice(0, 69)}…` : flat;
}
