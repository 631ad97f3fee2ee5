import type { Clock } from "../../../platform/clock.js";
import { parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { ACP_HELP } from "../help.js";
import type { CliIo } from "../io.js";

/**
 * `mini-cursor acp`: an Agent Client Protocol agent on stdin/stdout for editors (src/acp). The SDK and the session
 * machinery load only here, so `--help` stays fast.
 */
export function acpCommand(version: string) {
  return async (argv: string[], io: CliIo, clock: Clock): Promise<number> => {
    const { values, positionals } = parse(argv, { help: { type: "boolean", short: "h" } });
    if (values.help) {
      io.stdout.write(`${ACP_HELP}\n`);
      return EXIT.done;
    }
    if (positionals.length > 0)
      throw new UsageError(`acp takes no arguments (got "${positionals.join(" ")}"); an editor starts it and speaks ACP on stdin/stdout`);
    const { serveAcp } = await import("../../acp/acp-command.js");
    return serveAcp({ stdin: process.stdin, stdout: process.stdout, env: io.env, cwd: io.cwd, version }, clock);
  };
}
