import { APPROVAL_MODES, type ApprovalMode } from "../../../core/index.js";
import type { ConversationSettings } from "../../../host/conversation-turn.js";
import { INIT_SETTINGS, INIT_TASK } from "../../../host/init-task.js";
import type { Clock } from "../../../platform/clock.js";
import type { CliIo } from "../io.js";
import { runCaptured } from "./captured-io.js";
import type { CustomCommand } from "./custom-commands.js";

/** What a slash command may do to the conversation it is typed in. */
export interface ChatContext {
  workspace: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** The conversation's session (it exists once its first message ran). */
  readonly sessionId: string;
  /** The settings the next turns run with. */
  readonly settings: ConversationSettings;
  /** Keeps the changed settings with the session now (a session with no message yet gets them with its first). */
  saveSettings(): Promise<void>;
  print(text: string): void;
  /** Goes on with another session of this workspace (`/resume`, `/fork`), or a new one (`/clear`: no id). */
  useSession(id?: string): void;
  /**
   * Sends a message as if it was typed (a custom command's prompt), once the command is done; `once` changes the
   * settings for that message's turn only (/init asks before each file change).
   */
  send(text: string, once?: Partial<ConversationSettings>): void;
  leave(): void;
}

export interface SlashCommand {
  name: string;
  /** What follows the name, for /help (`<id>`, `ask|auto|read-only`). */
  args?: string;
  description: string;
  run(args: string, ctx: ChatContext): Promise<void> | void;
}

type CommandFn = (argv: string[], io: CliIo, clock: Clock) => Promise<number>;

/** One of the CLI's commands, run in this process with its output shown in the conversation. */
async function cli(ctx: ChatContext, name: string, load: () => Promise<CommandFn>, argv: string[]): Promise<number> {
  const command = await load();
  const { code, text } = await runCaptured((a, io) => command(a, io, ctx.clock), name, argv, { env: ctx.env, cwd: ctx.workspace });
  if (text) ctx.print(text);
  return code;
}

const here = (ctx: ChatContext) => ["--workspace", ctx.workspace];

export const BUILT_IN_COMMANDS: readonly SlashCommand[] = [
  {
    name: "help",
    description: "the commands, and how to answer, stop and leave",
    run: () => undefined, // answered by the conversation, which knows the custom commands too
  },
  {
    name: "diff",
    description: "what this session changed in the workspace",
    run: async (_args, ctx) => void (await cli(ctx, "diff", async () => (await import("../commands/diff.js")).diffCommand, [ctx.sessionId, ...here(ctx)])),
  },
  {
    name: "undo",
    description: "put back every file this session changed",
    run: async (_args, ctx) => void (await cli(ctx, "undo", async () => (await import("../commands/undo.js")).undoCommand, [ctx.sessionId, ...here(ctx)])),
  },
  {
    name: "cost",
    description: "tokens and dollars so far, per agent and model",
    run: async (_args, ctx) => ctx.print(await costLines(ctx)),
  },
  {
    name: "model",
    args: "[name]",
    description: "the model for every agent from now on; without a name, the endpoint's models",
    run: async (args, ctx) => ctx.print(await chooseModel(args.trim(), ctx)),
  },
  {
    name: "approval",
    args: APPROVAL_MODES.join("|"),
    description: "ask before commands, run them without asking (auto), or no changes at all",
    run: async (args, ctx) => {
      const mode = args.trim();
      if (!isApprovalMode(mode)) return ctx.print(`Approval is ${ctx.settings.approval}; /approval ${APPROVAL_MODES.join("|")} changes it.`);
      ctx.settings.approval = mode;
      await ctx.saveSettings();
      ctx.print(`Approval: ${mode} from the next message on.`);
    },
  },
  {
    name: "memory",
    args: "search <words> | add <note>",
    description: "long-term memory: search it, or add a note for later sessions",
    run: async (args, ctx) => {
      const [sub = "", ...rest] = args.trim().split(/\s+/);
      if ((sub !== "search" && sub !== "add") || rest.length === 0) return ctx.print("Use /memory search <words> or /memory add <note>.");
      await cli(ctx, "memory", async () => (await import("../commands/memory.js")).memoryCommand, [sub, rest.join(" "), ...here(ctx)]);
    },
  },
  {
    name: "sessions",
    description: "this workspace's sessions, newest first",
    run: async (_args, ctx) => void (await cli(ctx, "sessions", async () => (await import("../commands/sessions.js")).sessionsCommand, here(ctx))),
  },
  {
    name: "resume",
    args: "<id>",
    description: "go on with another session of this workspace",
    run: (args, ctx) => {
      const id = args.trim();
      if (!id) return ctx.print("Use /resume <id> (see /sessions).");
      ctx.useSession(id);
    },
  },
  {
    name: "fork",
    description: "a copy of this session to try another way; the conversation goes on in the copy",
    run: async (_args, ctx) => {
      const command = (await import("../commands/fork.js")).forkCommand;
      const { code, text } = await runCaptured((a, io) => command(a, io, ctx.clock), "fork", [ctx.sessionId, "--json", ...here(ctx)], {
        env: ctx.env,
        cwd: ctx.workspace,
      });
      const id = code === 0 ? forkedId(text) : undefined;
      if (!id) return ctx.print(text);
      ctx.print(`Forked ${ctx.sessionId} as ${id}; going on in the copy.`);
      ctx.useSession(id);
    },
  },
  {
    name: "clear",
    description: "start a new session (the current one stays, see /sessions)",
    run: (_args, ctx) => ctx.useSession(),
  },
  {
    name: "init",
    description: "a new session that writes AGENTS.md for the project, shown as a diff to accept",
    run: (_args, ctx) => {
      ctx.useSession();
      ctx.send(INIT_TASK, INIT_SETTINGS);
    },
  },
  {
    name: "exit",
    description: "leave (the session is kept: mini-cursor -c goes on with it)",
    run: (_args, ctx) => ctx.leave(),
  },
];

function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
}

function forkedId(json: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    const id = typeof parsed === "object" && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

async function costLines(ctx: ChatContext): Promise<string> {
  const [{ openRunStore }, { hasCheckpoint, readSessionState }, { resolveSessionConfig }, { summarizeUsage }, { usageReportLines }] = await Promise.all([
    import("../../../sessions/open-run-store.js"),
    import("../../../host/session-state.js"),
    import("../../../host/config-setup.js"),
    import("../../../models/cost/usage.js"),
    import("../../../models/cost/format.js"),
  ]);
  const database = await openRunStore(ctx.workspace, ctx.env, ctx.clock, { create: false });
  if (!database) return "Nothing spent yet.";
  try {
    if (!(await hasCheckpoint(database, ctx.sessionId))) return "Nothing spent yet.";
    const state = await readSessionState(database, ctx.sessionId);
    const { prices } = await resolveSessionConfig({}, ctx.workspace, ctx.env);
    return usageReportLines(summarizeUsage(state.usage, prices)).join("\n");
  } finally {
    await database.close();
  }
}

async function chooseModel(name: string, ctx: ChatContext): Promise<string> {
  if (name) {
    ctx.settings.model = name;
    await ctx.saveSettings();
    return `Model: ${name} for every agent from the next message on.`;
  }
  const [{ setupSessionConfig }, { listEndpointModels }] = await Promise.all([
    import("../../../host/config-setup.js"),
    import("../../../models/model-list.js"),
  ]);
  const { models } = await setupSessionConfig(ctx.settings.model ? { model: ctx.settings.model } : {}, ctx.workspace, ctx.env);
  const current = ctx.settings.model ?? models.settings.model;
  const listed = await listEndpointModels(models.settings).catch(() => []);
  if (listed.length === 0) return `Model: ${current}. The endpoint lists no models; /model <name> picks one by name.`;
  return [`Model: ${current}. The endpoint's models (/model <name> picks one):`, ...listed.map((m) => `  ${m === current ? "•" : " "} ${m}`)].join("\n");
}

/** A custom command (a Markdown file's prompt) as a slash command: its text, with $ARGUMENTS filled in, is sent. */
export function customSlashCommand(c: CustomCommand): SlashCommand {
  return {
    name: c.name,
    ...(c.argumentHint ? { args: c.argumentHint } : {}),
    description: `${c.description} (${c.source})`,
    run: (args, ctx) =>
      ctx.send(c.prompt.includes("$ARGUMENTS") ? c.prompt.replaceAll("$ARGUMENTS", args.trim()) : `${c.prompt}${args.trim() ? `\n\n${args.trim()}` : ""}`),
  };
}
