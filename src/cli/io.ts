import type { Clock } from "../runtime/clock.js";
import type { EventSink } from "../core/index.js";
import { HumanPrinter, type Output } from "./printers/human.js";
import { JsonPrinter } from "./printers/json.js";

/** The process surroundings a command uses, passed in so commands stay testable. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function makePrinter(json: boolean, io: CliIo, clock: Clock): EventSink {
  return json ? new JsonPrinter(io.stdout, clock) : new HumanPrinter(io.stdout);
}
