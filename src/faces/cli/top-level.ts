import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../../platform/config-file.js";
import { BusyError } from "../../sessions/busy-error.js";
import { damagedDatabaseLine } from "../../sessions/data-errors.js";
import { closest } from "./did-you-mean.js";
import { EXIT, UnknownOptionError, UsageError } from "./exit-codes.js";
import {
  ACP_HELP,
  SERVE_HELP,
  AGENTS_HELP,
  CHAT_HELP,
  FORK_HELP,
  INDEX_HELP,
  INIT_HELP,
  MAIN_HELP,
  MEMORY_HELP,
  RESUME_HELP,
  RUN_HELP,
  SESSIONS_HELP,
} from "./help.js";
import type { CliIo } from "./io.js";
import { DIFF_HELP, UNDO_HELP } from "./undo-help.js";
import { errorMessage } from "../../platform/error-info.js";

/** Every command, in the order the unknown-command line lists them. */
export const COMMAND_NAMES = [
  "chat",
  "run",
  "resume",
  "init",
  "sessions",
  "fork",
  "memory",
  "index",
  "diff",
  "undo",
  "replay",
  "doctor",
  "agents",
  "mcp",
  "acp",
  "serve",
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const TOP_LEVEL_FLAGS = ["--help", "--version", "-h", "-v"];
const QUICK_HELP: Partial<Record<CommandName, string>> = {
  chat: CHAT_HELP,
  run: RUN_HELP,
  resume: RESUME_HELP,
  init: INIT_HELP,
  sessions: SESSIONS_HELP,
  fork: FORK_HELP,
  memory: MEMORY_HELP,
  index: INDEX_HELP,
  diff: DIFF_HELP,
  undo: UNDO_HELP,
  agents: AGENTS_HELP,
  acp: ACP_HELP,
  serve: SERVE_HELP,
};

export function isCommand(name: string | undefined): name is CommandName {
  return COMMAND_NAMES.some((c) => c === name);
}

/** Ours, the nearest package.json up from this module: the same from src/ (tests) and from dist/ (the build). */
export function version(): string {
  const require = createRequire(import.meta.url);
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg: unknown = require(path.join(dir, "package.json"));
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "mini-cursor")
        return "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
    if (path.dirname(dir) === dir) return "unknown";
  }
}

/** `mini-cursor rn` or `mini-cursor --verbose`: one line, with the close command or flag when there is one. */
function unknownCommandLine(command: string): string {
  if (command.startsWith("-")) return UnknownOptionError.line(command.split("=")[0] ?? command, closest(command, TOP_LEVEL_FLAGS), undefined);
  const suggestion = closest(command, [...COMMAND_NAMES]);
  return `unknown command "${command}"; ${suggestion ? `did you mean ${suggestion}?` : `commands: ${COMMAND_NAMES.join(", ")} (see mini-cursor --help)`}`;
}

/** What starts a conversation without naming it: nothing, or one of its flags first (`mini-cursor -c`). */
const CHAT_FLAGS = new Set(["-c", "--continue", "-r", "--resume", "--workspace", "--model", "--base-url", "--approval"]);

/** The command line with its command: `mini-cursor` and `mini-cursor -c` are `mini-cursor chat`. */
export function withCommand(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first === undefined || CHAT_FLAGS.has(first.split("=")[0] ?? first)) return ["chat", ...argv];
  return [...argv];
}

/**
 * What needs no command module: help, the version, `<command> --help` and an unknown command. The exit code, or
 * undefined when a command has to run.
 */
export function answerTopLevel(argv: readonly string[], io: CliIo): number | undefined {
  const [command = "chat", ...rest] = withCommand(argv);
  if (command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(`${MAIN_HELP}\n`);
    return EXIT.done;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return EXIT.done;
  }
  if (!isCommand(command)) {
    io.stderr.write(`mini-cursor: ${unknownCommandLine(command)}\n`);
    return EXIT.usage;
  }
  const quickHelp = QUICK_HELP[command];
  if (quickHelp && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout.write(`${quickHelp}\n`);
    return EXIT.done;
  }
  return undefined;
}

/**
 * A command's error as the user sees it: a flag, variable or config file that cannot be used is a usage error whose
 * message names the source (exit 2); anything else is one line and exit 1, never a stack trace.
 */
export function reportFailure(error: unknown, command: string, io: CliIo): number {
  const damaged = damagedDatabaseLine(error);
  if (damaged !== undefined) {
    io.stderr.write(`mini-cursor: ${damaged}\n`);
    return EXIT.usage;
  }
  if (error instanceof BusyError) {
    io.stderr.write(`mini-cursor: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof UsageError || error instanceof ConfigError) {
    const line = error instanceof UnknownOptionError ? error.forCommand(command) : error.message;
    io.stderr.write(`mini-cursor: ${line}\n`);
    return EXIT.usage;
  }
  io.stderr.write(`mini-cursor: ${errorMessage(error)}\n`);
  return EXIT.failed;
}
