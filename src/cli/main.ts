#!/usr/bin/env node
import { createRequire } from "node:module";
import { systemClock } from "../runtime/clock.js";
import { resumeCommand } from "./commands/resume.js";
import { runCommand } from "./commands/run.js";
import { sessionsCommand } from "./commands/sessions.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { MAIN_HELP } from "./help.js";
import type { CliIo } from "./io.js";

const COMMANDS = { run: runCommand, resume: resumeCommand, sessions: sessionsCommand } as const;

function version(): string {
  const require = createRequire(import.meta.url);
  const pkg: unknown = require("../../package.json");
  return typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
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
  if (!(command in COMMANDS)) {
    io.stderr.write(`mini-cursor: unknown command "${command}" (commands: run, resume, sessions; see --help)\n`);
    return EXIT.usage;
  }
  try {
    return await COMMANDS[command as keyof typeof COMMANDS](rest, io, systemClock);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`mini-cursor: ${error.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`mini-cursor: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}

const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
// Exit explicitly once output is flushed: keep-alive sockets of the HTTP client must not hold the process.
const exit = (code: number) => process.stdout.write("", () => process.exit(code));
main(process.argv.slice(2), io).then(exit, (error: unknown) => {
  io.stderr.write(`mini-cursor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(EXIT.failed);
});
