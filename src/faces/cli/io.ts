import type { Clock } from "../../platform/clock.js";
import type { EventSink } from "../../core/index.js";
import { LiveView } from "./live-view/live-view.js";
import { HumanPrinter, type Output } from "./printers/human.js";
import { JsonPrinter } from "./printers/json.js";
import { promptLineOf } from "./prompt-line.js";

/** The process surroundings a command uses, passed in so commands stay testable. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * `--json`: JSON lines. A terminal gets the live view; a pipe, a file or CI (or TERM=dumb) gets plain lines.
 * NO_COLOR (any non-empty value) turns colour off in both.
 */
export function makePrinter(json: boolean, io: CliIo, clock: Clock): EventSink {
  if (json) return new JsonPrinter(io.stdout, clock);
  // Through the line a prompt holds: a notice that comes while a question waits is printed above it.
  const out = promptLineOf(io.stdout).output;
  if (io.stdout.isTTY && io.env.TERM !== "dumb") return new LiveView(out, { clock, color: !io.env.NO_COLOR });
  return new HumanPrinter(out);
}
