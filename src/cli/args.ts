import fs from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./exit-codes.js";

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

/** parseArgs with its errors turned into one clear usage line. */
export function parse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(message ?? "invalid arguments");
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
