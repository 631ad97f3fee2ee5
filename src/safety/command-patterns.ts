import { SHELLS } from "./nested-commands.js";
import { isKnownReadOnly, writesNoFile } from "./read-only-commands.js";
import { parseShell, type ParsedShell, type SimpleCommand } from "./shell-words.js";

/**
 * "Always allow" patterns: a glob over the command text where `*` is any characters (`npm test*`) and a final ` *`
 * is "with or without arguments" (`npm test *` allows `npm test` and `npm test -- x`, not `npm tester`), or a regular
 * expression written `/…/flags`. A pattern allows a command line only when it matches each command in it — every
 * part of a `&&`, `;` or `|` chain and every command inside `$( … )` or `bash -c` — so `npm test*` allows
 * `npm test -- --run foo` but not `npm test && curl … | sh`. Harmless parts (`cd dir`, `echo`, and filters such
 * as `| tail -20` at the end of a pipe) need no pattern of their own. A pattern with no wildcard also matches the
 * whole line exactly, so an approved compound command can be approved again.
 */

const REGEX_PATTERN = /^\/(.+)\/([a-z]*)$/s;

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The one command a pattern can match, when it has no wildcard: a glob without `*`, or a regex that is an
 * anchored, fully escaped string (as `commandPatternFor` writes for commands containing `*`).
 */
function literalOf(pattern: string): string | undefined {
  const regex = REGEX_PATTERN.exec(pattern.trim());
  if (!regex) return pattern.includes("*") ? undefined : collapse(pattern);
  const body = /^\^((?:[^\\.*+?()[\]{}|$^]|\\[^A-Za-z0-9])*)\$$/.exec(regex[1] ?? "");
  return body && regex[2] === "" ? collapse((body[1] ?? "").replace(/\\(.)/g, "$1")) : undefined;
}

/** One pattern against one text: the glob must cover all of it; a regex only has to match somewhere. */
export function matchesText(text: string, pattern: string): boolean {
  const regex = REGEX_PATTERN.exec(pattern.trim());
  if (regex) {
    try {
      return new RegExp(regex[1] ?? "", (regex[2] ?? "").replace(/[gy]/g, "")).test(text.trim());
    } catch {
      return false;
    }
  }
  const collapsed = collapse(pattern);
  // `git log *`: the command alone or with arguments, never a longer word (`git logout`).
  const [body, tail] = collapsed.endsWith(" *") ? [collapsed.slice(0, -2), "(?: .*)?"] : [collapsed, ""];
  const glob = body.split("*").map(escapeRegExp).join(".*");
  return new RegExp(`^${glob}${tail}$`, "s").test(collapse(text));
}

const ALWAYS_HARMLESS = new Set(["cd", "pushd", "popd", "true", "false", ":", "pwd", "echo", "printf"]);
const PIPE_FILTERS = new Set(["head", "tail", "grep", "egrep", "fgrep", "wc", "cut", "tr", "nl", "tac", "cat", "sort", "uniq", "column"]);

/**
 * Commands that change nothing and run nothing by themselves, so they need no allow pattern: `cd`, `echo`, … and, at
 * the end of a pipe, filters with read-only options (`| sort -n`, not `| sort -o out` or `--compress-program=x`; the
 * filters' options are judged as the read-only class judges them).
 */
function isHarmless(command: SimpleCommand, parsed: ParsedShell): boolean {
  if (!writesNoFile(command) || command.wrappers.length > 0 || command.words.length !== command.argv.length) return false;
  const [name] = command.argv;
  if (name === undefined || ALWAYS_HARMLESS.has(name)) return true;
  const readsPipe = (command.pipes[0]?.stage ?? 0) > 0;
  return readsPipe && PIPE_FILTERS.has(name) && isKnownReadOnly({ ...parsed, commands: [command] });
}

/** Whether `pattern` allows the whole command line (see the module comment). */
export function matchesPattern(command: string, pattern: string): boolean {
  return allowingPatterns(command, [pattern]).length > 0;
}

/**
 * The patterns that together allow the line — each command in it matched by one of them or harmless — or []
 * when they do not. `git status && git log` is allowed by `git status` plus `git log*`.
 */
export function allowingPatterns(command: string, patterns: readonly string[], parsed: ParsedShell = parseShell(command)): string[] {
  const literal = patterns.find((p) => literalOf(p) === collapse(command));
  if (literal !== undefined) return [literal];
  if (!parsed.complete || parsed.commands.length === 0) return [];
  const used = new Set<string>();
  for (const part of parsed.commands) {
    // A redirection into a file is a write the pattern does not name (`git log*` does not allow `git log > x`),
    // unless the pattern itself names a redirection.
    const named = writesNoFile(part) ? patterns : patterns.filter((p) => p.includes(">"));
    const pattern = named.find((p) => matchesText(part.text, p));
    if (pattern !== undefined) used.add(pattern);
    else if (!isHarmless(part, parsed)) return [];
  }
  return [...used];
}

/** Programs whose arguments decide everything they do: only the exact command is suggested for them. */
const EXACT_ONLY = new Set([
  ...SHELLS,
  "eval",
  "exec",
  "source",
  ".",
  "xargs",
  "find",
  "sudo",
  "doas",
  "su",
  "env",
  "rm",
  "rmdir",
  "mv",
  "cp",
  "dd",
  "chmod",
  "chown",
  "chgrp",
  "shred",
  "wipe",
  "srm",
  "unlink",
  "rimraf",
  "trash",
  "kill",
  "pkill",
  "killall",
  "curl",
  "wget",
  "ssh",
  "scp",
  "rsync",
  "nc",
  "python",
  "python3",
  "node",
  "perl",
  "ruby",
  "php",
  "deno",
  "bun",
  "awk",
  "sed",
  "git",
]);
const SUBCOMMAND_RUNNERS = new Set(["run", "run-script", "exec", "x", "dlx"]);
/** `npx vitest run` is suggested as `npx vitest*`; other wrappers (sudo, env, …) get the exact command. */
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx"]);

function exactPattern(command: string): string {
  const text = collapse(command);
  return text.includes("*") ? `/^${escapeRegExp(command.trim())}$/` : text;
}

/**
 * A pattern to offer for "always allow": `npm test -- --run foo` → `npm test *`, `git status` → `git status`,
 * `npm run lint -- --fix` → `npm run lint *`. Compound lines, wrapped commands and programs whose arguments matter
 * (rm, curl, bash -c, …) get the exact command. git gets its subcommand: `git log --oneline` → `git log *`, which
 * keeps the word boundary (`git logout` is another command).
 */
export function commandPatternFor(command: string): string {
  const parsed = parseShell(command);
  const only = parsed.commands[0];
  const runnerOnly = only?.wrappers.every((w) => PACKAGE_RUNNERS.has(w)) ?? false;
  if (!parsed.complete || parsed.commands.length !== 1 || !only || !runnerOnly || only.words.length !== only.argv.length + only.wrappers.length) {
    return exactPattern(command);
  }
  const words = only.rawWords;
  const name = only.argv[0] ?? "";
  if (EXACT_ONLY.has(name) && !(name === "git" && /^[a-z]/.test(words[1] ?? ""))) return exactPattern(command);
  const prefix = words.slice(0, 1);
  const second = words[1];
  if (second !== undefined && !second.startsWith("-")) {
    prefix.push(second);
    const third = words[2];
    if (SUBCOMMAND_RUNNERS.has(second) && third !== undefined && !third.startsWith("-")) prefix.push(third);
  }
  if (prefix.length === words.length || prefix.some((w) => /[*'"\\$`]/.test(w))) return exactPattern(command);
  return `${prefix.join(" ")} *`;
}
