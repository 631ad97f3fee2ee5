import { systemClock } from "../../platform/clock.js";
import type { CliIo } from "./io.js";
import { answerTopLevel, reportFailure, version, withCommand, type CommandName } from "./top-level.js";

type Command = (argv: string[], io: CliIo, clock: typeof systemClock) => Promise<number>;

/** Loaded on demand: LangGraph, LangChain and SQLite take most of a second to import, `--help` needs none. */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  chat: async () => (await import("./chat/chat-command.js")).chatCommand,
  run: async () => (await import("./commands/run.js")).runCommand,
  resume: async () => (await import("./commands/resume.js")).resumeCommand,
  init: async () => (await import("./commands/init.js")).initCommand,
  sessions: async () => (await import("./commands/sessions.js")).sessionsCommand,
  fork: async () => (await import("./commands/fork.js")).forkCommand,
  memory: async () => (await import("./commands/memory.js")).memoryCommand,
  index: async () => (await import("./commands/index-command.js")).indexCommand,
  diff: async () => (await import("./commands/diff.js")).diffCommand,
  undo: async () => (await import("./commands/undo.js")).undoCommand,
  replay: async () => (await import("./commands/replay.js")).replayCommand,
  doctor: async () => (await import("./commands/doctor.js")).doctorCommand,
  agents: async () => (await import("./commands/agents.js")).agentsCommand,
  mcp: async () => (await import("./commands/mcp.js")).mcpCommand,
  acp: async () => (await import("./commands/acp.js")).acpCommand(version()),
  serve: async () => (await import("./commands/serve.js")).serveCommand,
};

const LAUNCHING_COMMANDS = new Set<string>(["chat", "run", "resume", "init", "acp"]);

/**
 * Every command. main.ts answers help and the listing commands itself and hands the rest here: this module and what
 * it loads are the ES module part of the build (scripts/bundle.mjs).
 */
export async function main(given: string[], io: CliIo): Promise<number> {
  const argv = withCommand(given);
  const answered = answerTopLevel(argv, io);
  if (answered !== undefined) return answered;
  const command = argv[0] as CommandName;
  try {
    // A bad command line of `run` is answered before the launcher starts and the run module (the session host) loads.
    if (command === "run") (await import("./commands/run-args.js")).readRunArgs(argv.slice(1), io.cwd);
  } catch (error) {
    return reportFailure(error, command, io);
  }
  // Commands that run tools start the process launcher first, while this process is still small (see launcher/).
  if (LAUNCHING_COMMANDS.has(command))
    void import("../../platform/launcher/index.js").then(
      (m) => m.startLauncher(),
      () => undefined,
    );
  try {
    const run = await COMMANDS[command]();
    return await run(argv.slice(1), io, systemClock);
  } catch (error) {
    return reportFailure(error, command, io);
  }
}
