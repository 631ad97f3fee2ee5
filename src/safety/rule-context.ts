import type { PathContext } from "./command-paths.js";
import type { ParsedShell, SimpleCommand } from "./shell-words.js";

/** A built-in rule's verdict: which rule, and one sentence the model can act on. */
export interface RuleHit {
  rule: string;
  reason: string;
}

export interface RuleEnv {
  /** Workspace, home and the folder this command runs in (after any `cd` before it). */
  paths: PathContext;
  parsed: ParsedShell;
}

export type CommandRule = (command: SimpleCommand, env: RuleEnv) => RuleHit | undefined;

/** The command as quoted in a reason: its own text, shortened. */
export function shown(command: SimpleCommand): string {
  const text = command.text.replace(/\s+/g, " ").trim();
  return `\`${text.length > 80 ? `${text.slice(0, 77)}...` : text}\``;
}
