import { parseGit } from "./git-args.js";
import { SHELLS } from "./nested-commands.js";
import type { ParsedShell, SimpleCommand } from "./shell-words.js";

/**
 * The known-read-only class: command lines that run without asking in `ask` mode because every command in them only
 * reads. Modelled on Codex's `is_known_safe_command` (codex-rs/core/src/command_safety/is_safe_command.rs), decided on
 * the parsed line: each command (in pipes, lists, subshells, `$( … )` and `bash -c`) is a read-only program with
 * read-only options, has no wrapper (`sudo`, `env`, …) or variable prefix (`LD_PRELOAD=…`), and no redirection
 * writes a file. Programs whose options decide what they do (find, rg, git, sed, base64, sort, uniq) must also be
 * given static words: an expansion (`$x`, `$( … )`, a glob, `{a,b}`) could turn into an option such as `-delete`.
 * Such commands still run in the sandbox like any other.
 */

/** Programs that only read whatever their arguments are. */
const READS_ONLY = new Set([
  "cat",
  "cd",
  "column",
  "cut",
  "echo",
  "expr",
  "false",
  "grep",
  "egrep",
  "fgrep",
  "head",
  "id",
  "ls",
  "nl",
  "numfmt",
  "paste",
  "pwd",
  "rev",
  "seq",
  "stat",
  "tac",
  "tail",
  "tr",
  "true",
  "uname",
  "wc",
  "which",
  "whoami",
]);

/** find's actions that run commands, delete, or write file names to a file. */
const FIND_UNSAFE = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"]);

/** git subcommands that only read, and the options that would make them write a file or run a program. */
const GIT_READING = new Set(["status", "log", "diff", "show", "branch"]);
const GIT_UNSAFE_LONG = ["output", "ext-diff", "textconv", "exec", "paginate"];
/** Global options allowed before the subcommand; any other (`-c`, `--config-env`, `--exec-path`, …) asks. */
const GIT_GLOBAL_SAFE = new Set(["--no-pager", "-P", "--no-optional-locks"]);
const GIT_BRANCH_LISTING = new Set(["--list", "-l", "--show-current", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose"]);

/** sort's options that neither write a file nor run a program (`-o`, `--output`, `--compress-program`, `-T` are not). */
const SORT_SAFE = new Set([
  "-b",
  "-d",
  "-f",
  "-g",
  "-i",
  "-M",
  "-h",
  "-n",
  "-R",
  "-r",
  "-V",
  "-c",
  "-C",
  "-m",
  "-s",
  "-u",
  "-z",
  "--ignore-leading-blanks",
  "--dictionary-order",
  "--ignore-case",
  "--general-numeric-sort",
  "--ignore-nonprinting",
  "--month-sort",
  "--human-numeric-sort",
  "--numeric-sort",
  "--random-sort",
  "--reverse",
  "--version-sort",
  "--check",
  "--merge",
  "--stable",
  "--unique",
  "--zero-terminated",
]);
/** sort's options that take a value as the next word (or attached): the value is not an option. */
const SORT_WITH_VALUE = new Set(["-k", "-t", "--key", "--field-separator"]);

/** A word bash would expand (parameter, command or process substitution, a glob, braces): its value is unknown here. */
export function isDynamicWord(raw: string): boolean {
  let quote: "'" | '"' | "" = "";
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i];
    if (quote === "'") {
      if (c === "'") quote = "";
      continue;
    }
    if (c === "\\") {
      i += 1;
      continue;
    }
    if (c === "$" || c === "`") return true;
    if (quote === '"') {
      if (c === '"') quote = "";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "*" || c === "?" || c === "[" || c === "{" || ((c === "<" || c === ">") && raw[i + 1] === "(")) return true;
  }
  return false;
}

/** Whether a long option (`--name` or `--name=value`) may be one of `names`: git accepts any unique prefix. */
function longPrefixOf(arg: string, names: readonly string[]): boolean {
  if (!arg.startsWith("--") || arg.length === 2) return false;
  const name = arg.slice(2).split("=")[0] ?? "";
  return names.some((n) => n.startsWith(name));
}

function gitReads(argv: readonly string[]): boolean {
  const call = parseGit(argv);
  if (!call || !GIT_READING.has(call.subcommand)) return false;
  // Every global option before the subcommand must be one that neither configures nor runs anything.
  const globals = argv.slice(1, argv.length - call.args.length - 1);
  for (let i = 0; i < globals.length; i += 1) {
    const g = globals[i] ?? "";
    if (g === "-C") i += 1;
    else if (!GIT_GLOBAL_SAFE.has(g)) return false;
  }
  if (call.args.some((a) => longPrefixOf(a, GIT_UNSAFE_LONG))) return false;
  if (call.subcommand !== "branch") return true;
  // `git branch NAME`, `-d`, `-m`, … change branches: only listing options, and at least one of them (or none at all).
  return call.args.every((a) => GIT_BRANCH_LISTING.has(a) || a.startsWith("--format="));
}

function rgReads(args: readonly string[]): boolean {
  return !args.some(
    (a) =>
      a === "--search-zip" ||
      a === "--pre" ||
      a.startsWith("--pre=") ||
      a === "--hostname-bin" ||
      a.startsWith("--hostname-bin=") ||
      (/^-[^-]/.test(a) && a.includes("z")),
  );
}

function sortReads(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? "";
    if (a === "--") return true;
    if (!a.startsWith("-") || a === "-") continue;
    if (SORT_WITH_VALUE.has(a)) i += 1;
    else if (/^-[kt]./.test(a) || /^--(key|field-separator)=/.test(a)) continue;
    else if (!SORT_SAFE.has(a) && !/^-[bdfgiMhnRrVcCmsuz]+$/.test(a)) return false;
  }
  return true;
}

/** One command's program and options, judged on their own (its redirections and words are checked by the caller). */
function programReads(argv: readonly string[]): boolean {
  const [name = "", ...args] = argv;
  if (READS_ONLY.has(name)) return true;
  switch (name) {
    case "find":
      return !args.some((a) => FIND_UNSAFE.has(a));
    case "rg":
      return rgReads(args);
    case "git":
      return gitReads(argv);
    case "sed":
      // `sed -n 5p file` / `sed -n 1,5p file`: print lines, nothing else.
      return args.length <= 3 && args[0] === "-n" && /^(\d+,)?\d+p$/.test(args[1] ?? "");
    case "base64":
      return !args.some((a) => /^-[^-]*o/.test(a) || longPrefixOf(a, ["output"]));
    case "sort":
      return sortReads(args);
    case "uniq":
      // A second operand is the file uniq writes.
      return args.filter((a) => !a.startsWith("-") || a === "-").length <= 1;
    default:
      return false;
  }
}

/** No redirection of this command writes a file (reading one, `/dev/null` and duplicating descriptors do not). */
export function writesNoFile(command: SimpleCommand): boolean {
  return command.redirects.every((r) => /^[<]/.test(r.op) || r.target === "/dev/null" || /^(?:\d+|-)$/.test(r.target));
}

/** `bash -c SCRIPT` (also `-lc`, sh, zsh, dash) whose script the parser read into commands of its own. */
function isShellScript(command: SimpleCommand, parsed: ParsedShell): boolean {
  const [name = "", flag = "", ...rest] = command.argv;
  return SHELLS.has(name) && ["-c", "-lc", "-cl"].includes(flag) && rest.length === 1 && parsed.commands.some((c) => c.parent === command.index);
}

function commandReads(command: SimpleCommand, parsed: ParsedShell): boolean {
  if (command.wrappers.length > 0 || command.words.length !== command.argv.length || !writesNoFile(command)) return false;
  if (isShellScript(command, parsed)) return true;
  const name = command.argv[0] ?? "";
  // An expansion in the words of a program whose options matter could become an option: not provably read-only.
  if (!READS_ONLY.has(name) && command.rawWords.some(isDynamicWord)) return false;
  return programReads(command.argv);
}

/** The class as `mini-cursor doctor` and the README list it. */
export const READ_ONLY_CLASS: readonly string[] = [
  ...[...READS_ONLY].sort(),
  "find (without -exec, -execdir, -ok, -okdir, -delete, -fls, -fprint*)",
  "rg (without --pre, --hostname-bin, -z/--search-zip)",
  "git status|log|diff|show, git branch listing (without -c/--config-env or other global options but -C, --output, --ext-diff, --textconv, --exec, --paginate)",
  "sed -n Np / sed -n M,Np",
  "base64 (without -o/--output)",
  "sort (without -o/--output, --compress-program, -T)",
  "uniq (one input, no output file)",
  "bash/sh/zsh -c SCRIPT whose commands are all read-only",
];

/** Whether the whole line is known to only read (see the module comment). */
export function isKnownReadOnly(parsed: ParsedShell): boolean {
  return parsed.complete && !parsed.truncated && parsed.commands.length > 0 && parsed.commands.every((c) => commandReads(c, parsed));
}
