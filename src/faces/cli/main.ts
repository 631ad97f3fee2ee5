#!/usr/bin/env node
import { systemClock } from "../../platform/clock.js";
import { DeferToApp } from "./defer.js";
import { EXIT, interruptedLine } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { answerTopLevel, reportFailure } from "./top-level.js";
import { errorMessage } from "../../platform/error-info.js";

/**
 * Help and the listing commands (`sessions`, `memory list`), answered by this file alone: in the build it is one
 * CommonJS file (scripts/bundle.mjs), so these never start Node's ES module loader nor load a chunk, which a user
 * feels on these quick commands ("Special cases kept and removed" in docs/benchmarks.md). Undefined: the full CLI
 * (app.ts) runs the command.
 */
async function quick(argv: string[], io: CliIo): Promise<number | undefined> {
  const answered = answerTopLevel(argv, io);
  if (answered !== undefined) return answered;
  const [command = "", sub] = argv;
  try {
    // Imported here, not at the top: in the CommonJS file their modules then initialize only when run.
    if (command === "sessions") return await (await import("./commands/sessions.js")).sessionsCommand(argv.slice(1), io, systemClock);
    if (command === "memory" && sub === "list") return await (await import("./commands/memory-list.js")).memoryListCommand(argv.slice(2), io);
  } catch (error) {
    if (error instanceof DeferToApp) return undefined;
    return reportFailure(error, command, io);
  }
  return undefined;
}

async function main(argv: string[], io: CliIo): Promise<number> {
  const answered = await quick(argv, io);
  if (answered !== undefined) return answered;
  // Before the app loads, which is when V8 would first grow it (src/platform/young-generation.ts).
  (await import("../../platform/young-generation.js")).keepYoungGenerationSmall();
  return (await import("./app.js")).main(argv, io);
}

const io: CliIo = {
  // Read on first use: opening stdin loads node:net and sets up a handle, which listing commands skip; stdout and
  // stderr on pipes cost too, and a listing that succeeds never opens stderr.
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  env: process.env,
  cwd: process.cwd(),
};

/**
 * Ctrl-C or SIGTERM while no command handles it (start-up: imports, configuration, the model probe; and the
 * commands that do not): one line and exit 130, instead of dying silently. Exiting runs the 'exit' hooks, which
 * remove the locks this process holds (src/platform/file-lock.ts).
 */
let signalled = false;
function onSignal(signal: NodeJS.Signals): void {
  signalled = true;
  // A listener added after this one (the session runner) owns the signal now: it stops the graph cleanly.
  if (process.listenerCount(signal) > 1) return;
  io.stderr.write(`mini-cursor: ${interruptedLine(signal)}\n`);
  process.exit(EXIT.interrupted);
}
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

// Exit explicitly once output is flushed: keep-alive sockets of the HTTP client must not hold the process.
let settled = false;
const exit = (code: number) => {
  settled = true;
  process.stdout.write("", () => process.exit(code));
};
// Never a silent exit 0 for a command that did not finish: if nothing is left to wait for while it still waits (a
// helper process killed under it), say so and exit 130 after a signal, 1 otherwise.
process.on("beforeExit", () => {
  if (settled) return;
  io.stderr.write("mini-cursor: stopped before the command finished (a process it was waiting for is gone)\n");
  process.exit(signalled ? EXIT.interrupted : EXIT.failed);
});
main(process.argv.slice(2), io).then(exit, (error: unknown) => {
  // Only what main() itself could not catch (its own output failing): one line, never a stack trace.
  io.stderr.write(`mini-cursor: ${errorMessage(error)}\n`);
  exit(EXIT.failed);
});
