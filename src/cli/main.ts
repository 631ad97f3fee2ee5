#!/usr/bin/env node
import { createRequire } from "node:module";
import { ConfigError } from "../runtime/config-file.js";
import { systemClock } from "../runtime/clock.js";
import { closest } from "./did-you-mean.js";
import { EXIT, interruptedLine, UnknownOptionError, UsageError } from "./exit-codes.js";
import { ACP_HELP, AGENTS_HELP, FORK_HELP, INDEX_HELP, MAIN_HELP, MEMORY_HELP, RESUME_HELP, RUN_HELP, SESSIONS_HELP } from "./help.js";
import type { CliIo } from "./io.js";
import { DIFF_HELP, UNDO_HELP } from "./undo-help.js";

type Command = (argv: string[], io: CliIo, clock: typeof systemClock) => Promise<number>;

/** Loaded on demand: LangGraph, LangChain and SQLite take most of a second to import, `--help` needs none. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import("./commands/run.js")).runCommand,
  resume: async () => (await import("./commands/resume.js")).resumeCommand,
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
};

const TOP_LEVEL_FLAGS = ["--help", "--version", "-h", "-v"];
const LAUNCHING_COMMANDS = new Set(["run", "resume", "acp"]);

function version(): string {
  const require = createRequire(import.meta.url);
  const pkg: unknown = require("../../package.json");
  return typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
}

/** `mini-cursor rn` or `mini-cursor --verbose`: one line, with the close command or flag when there is one. */
function unknownCommandLine(command: string): string {
  if (command.startsWith("-")) return UnknownOptionError.line(command.split("=")[0] ?? command, closest(command, TOP_LEVEL_FLAGS), undefined);
  const suggestion = closest(command, Object.keys(COMMANDS));
  return `unknown command "${command}"; ${suggestion ? `did you mean ${suggestion}?` : `commands: ${Object.keys(COMMANDS).join(", ")} (see mini-cursor --help)`}`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(`${MAIN_HELP}\n`);
    return command === undefined ? EXIT.usage : EXIT.done;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return EXIT.done;
  }
  const load = COMMANDS[command];
  const help: Record<string, string> = { run: RUN_HELP, resume: RESUME_HELP, sessions: SESSIONS_HELP, fork: FORK_HELP, memory: MEMORY_HELP, index: INDEX_HELP, diff: DIFF_HELP, undo: UNDO_HELP, agents: AGENTS_HELP, acp: ACP_HELP };
  const quickHelp = help[command];
  if (load && quickHelp && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout.write(`${quickHelp}\n`);
    return EXIT.done;
  }
  if (!load) {
    io.stderr.write(`mini-cursor: ${unknownCommandLine(command)}\n`);
    return EXIT.usage;
  }
  // Commands that run tools start the process launcher first, while this process is still small (see launcher/).
  if (LAUNCHING_COMMANDS.has(command)) void import("../runtime/launcher/index.js").then((m) => m.startLauncher(), () => undefined);
  try {
    const run = await load();
    return await run(rest, io, systemClock);
  } catch (error) {
    // A flag, variable or config file that cannot be used is a usage error; its message names the source.
    if (error instanceof UsageError || error instanceof ConfigError) {
      const line = error instanceof UnknownOptionError ? error.forCommand(command) : error.message;
      io.stderr.write(`mini-cursor: ${line}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`mini-cursor: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}

const io: CliIo = {
  // Read on first use: opening stdin loads node:net and sets up a handle (about 10 ms), which listing commands skip.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
};

/**
 * Ctrl-C or SIGTERM while no command handles it (start-up: imports, configuration, the model probe; and the
 * commands that do not): one line and exit 130, instead of dying silently. Exiting runs the 'exit' hooks, which
 * remove the locks this process holds (src/runtime/file-lock.ts).
 */
function onSignal(signal: NodeJS.Signals): void {
  // A listener added after this one (the session runner) owns the signal now: it stops the graph cleanly.
  if (process.listenerCount(signal) > 1) return;
  io.stderr.write(`mini-cursor: ${interruptedLine(signal)}\n`);
  process.exit(EXIT.interrupted);
}
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

// Exit explicitly once output is flushed: keep-alive sockets of the HTTP client must not hold the process.
const exit = (code: number) => process.stdout.write("", () => process.exit(code));
main(process.argv.slice(2), io).then(exit, (error: unknown) => {
  // Only what main() itself could not catch (its own output failing): one line, never a stack trace.
  io.stderr.write(`mini-cursor: ${error instanceof Error ? error.message : String(error)}\n`);
  exit(EXIT.failed);
});
