import { INIT_SETTINGS, INIT_TASK } from "../../../host/init-task.js";
import type { Clock } from "../../../platform/clock.js";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { INIT_HELP } from "../help.js";
import type { CliIo } from "../io.js";
import { runCommand } from "./run.js";

const INIT_OPTIONS = { ...COMMON_OPTIONS, ...MODEL_OPTIONS } as const;

/**
 * `mini-cursor init`: a session (as `run` starts one) whose task is to read the project and write its AGENTS.md, with
 * every file change asked about, so the person sees AGENTS.md as a diff and it is written only once accepted. Answers
 * come as `run`'s do (keys at a terminal, lines from a pipe); the exit codes are `run`'s.
 */
export async function initCommand(argv: string[], io: CliIo, clock: Clock): Promise<number> {
  const { values, positionals } = parse(argv, INIT_OPTIONS, "init");
  if (values.help) {
    io.stdout.write(`${INIT_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 0) throw new UsageError(`init takes no task, got "${positionals.join(" ")}"; it always writes AGENTS.md`);
  const given = (flag: string, value: string | undefined) => (value === undefined ? [] : [flag, value]);
  const asked = ["--approval", INIT_SETTINGS.approval, ...(INIT_SETTINGS.approveFileChanges ? ["--approve-file-changes"] : [])];
  const runArgv = [
    ...asked,
    ...given("--workspace", values.workspace),
    ...given("--model", values.model),
    ...given("--base-url", values["base-url"]),
    ...(values.json ? ["--json"] : []),
    INIT_TASK,
  ];
  return runCommand(runArgv, io, clock);
}
