import fs from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closest } from "./did-you-mean.js";
import { UnknownOptionError, UsageError } from "./exit-codes.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

export const COMMON_OPTIONS = {
  workspace: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

export const MODEL_OPTIONS = {
  model: { type: "string" },
  "base-url": { type: "string" },
} as const satisfies Options;

/** Every long and short spelling of the options, for suggestions ("--max-steps", "-h"). */
function spellings(options: Options): string[] {
  return Object.entries(options).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]);
}

/** A value that reads as a negative number (`-1`, `-0.5`): handed to the flag's own check, which says what it wants. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * Checks the command line against the options before Node's parser sees it, so every mistake is one line naming
 * the flag (Node's messages span lines and talk about its own syntax). Returns argv with a negative number after a
 * flag written inline (`--max-steps -1` → `--max-steps=-1`), which Node's strict mode would call "ambiguous".
 */
function checkFlags(argv: string[], options: Options, command: string | undefined): string[] {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const inlined: { index: number; arg: string }[] = [];
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = options[token.name];
    const raw = token.rawName;
    if (!option) throw new UnknownOptionError(raw, closest(raw, spellings(options)), command);
    if (option.type === "boolean") {
      if (token.value !== undefined) throw new UsageError(`${raw} takes no value, got ${argv[token.index] ?? raw}`);
      continue;
    }
    if (token.value === undefined) throw new UsageError(`${raw} needs a value`);
    if (token.inlineValue || !token.value.startsWith("-")) continue;
    const inline = raw.startsWith("--") ? `${raw}=${token.value}` : `${raw}${token.value}`;
    if (!NEGATIVE_NUMBER.test(token.value)) {
      throw new UsageError(`${raw} needs a value, got the option ${token.value} (to pass it as the value, write ${inline})`);
    }
    inlined.push({ index: token.index, arg: inline });
  }
  const args = [...argv];
  // Back to front, so joining two arguments into one leaves the earlier indexes valid.
  for (const { index, arg } of inlined.reverse()) args.splice(index, 2, arg);
  return args;
}

/**
 * Node's parseArgs behind a check that turns every bad flag into one clear line (a {@link UsageError}, exit 2):
 * an unknown option (with "did you mean" when one is close), a missing value, a flag where a value belongs, a value
 * given to a switch. `command` names the command in the unknown-option line ("run", "memory list"); without it,
 * main.ts fills in the command it dispatched to.
 */
export function parse<T extends Options>(argv: string[], options: T, command?: string) {
  const args = checkFlags(argv, options, command);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    // checkFlags covers every error strict parsing raises; this is a guard so Node's text never reaches a user.
    throw new UsageError(`cannot read the options ${argv.join(" ")}${command ? ` of mini-cursor ${command}` : ""}`);
  }
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number, got "${value}"`);
  return Number(value);
}

/** The workspace as a real path (symlinks resolved), so tool confinement compares like with like. */
export function resolveWorkspace(dir: string | undefined, cwd: string): string {
  const target = path.resolve(cwd, dir ?? ".");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new UsageError(`workspace ${target} does not exist`);
  }
  if (!stat.isDirectory()) throw new UsageError(`workspace ${target} is not a folder`);
  return fs.realpathSync(target);
}
