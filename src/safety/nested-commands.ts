import { skipOptions } from "./command-wrappers.js";

export type CommandOrigin =
  | "script"
  | "command-substitution"
  | "process-substitution"
  | "shell-string"
  | "eval"
  /** A here-document, here-string, or text piped in by `cat <<EOF` / `echo`, run by a shell. */
  | "stdin"
  | "xargs"
  | "find-exec";

/** Commands hidden inside another command's arguments: `bash -c "…"`, `eval …`, `xargs rm`, `find -exec rm {} \;`. */
export type NestedCommand = { kind: "script"; source: string; origin: CommandOrigin } | { kind: "argv"; words: string[]; origin: CommandOrigin };

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "rbash", "fish", "yash", "posh"]);

export interface ShellInvocation {
  /** The `-c` string. */
  command?: string;
  /** The script file operand. */
  script?: string;
  /** True when the shell runs what arrives on stdin (no `-c`, no script file, or `-s`). */
  readsStdin: boolean;
}

const SHELL_OPTIONS_WITH_VALUE = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

export function shellInvocation(argv: readonly string[]): ShellInvocation {
  let commandMode = false;
  let stdinMode = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (SHELL_OPTIONS_WITH_VALUE.has(w)) {
      i++;
      continue;
    }
    const operand = w === "--" ? argv[i + 1] : /^[-+][A-Za-z]+$/.test(w) || w.startsWith("--") ? null : w;
    if (operand === null) {
      if (w.startsWith("-") && !w.startsWith("--")) {
        commandMode ||= w.includes("c");
        stdinMode ||= w.includes("s");
      }
      continue;
    }
    if (commandMode) return { command: operand ?? "", readsStdin: false };
    const fromStdin = operand === undefined || operand === "-" || operand === "/dev/stdin";
    return { script: operand, readsStdin: stdinMode || fromStdin };
  }
  return commandMode ? { command: "", readsStdin: false } : { readsStdin: true };
}

const XARGS_OPTIONS = {
  short: "ILnPsdEa",
  long: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var"],
};

function findExecs(argv: readonly string[]): NestedCommand[] {
  const found: NestedCommand[] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(argv[i] ?? "")) continue;
    const words: string[] = [];
    for (i++; i < argv.length && argv[i] !== ";" && argv[i] !== "+"; i++) words.push(argv[i] ?? "");
    if (words.length > 0) found.push({ kind: "argv", words, origin: "find-exec" });
  }
  return found;
}

function suCommand(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "-c" || w === "--command") return argv[i + 1];
    if (w.startsWith("--command=")) return w.slice(10);
  }
  return undefined;
}

/**
 * What `argv` (already unwrapped) runs besides itself. `stdinText` is a here-document or here-string fed to it,
 * which a shell without `-c` or a script runs.
 */
export function nestedCommands(argv: readonly string[], stdinText: string | undefined): NestedCommand[] {
  const name = argv[0] ?? "";
  if (SHELLS.has(name)) {
    const call = shellInvocation(argv);
    if (call.command !== undefined) return [{ kind: "script", source: call.command, origin: "shell-string" }];
    if (call.readsStdin && stdinText !== undefined) return [{ kind: "script", source: stdinText, origin: "stdin" }];
    return [];
  }
  if (name === "eval") return [{ kind: "script", source: argv.slice(1).join(" "), origin: "eval" }];
  if (name === "su") {
    const source = suCommand(argv);
    return source === undefined ? [] : [{ kind: "script", source, origin: "shell-string" }];
  }
  if (name === "watch") {
    const start = skipOptions(argv, 1, { short: "n", long: ["interval"] });
    const exec = argv.slice(1, start).some((w) => w === "-x" || w === "--exec");
    const rest = argv.slice(start);
    if (rest.length === 0) return [];
    return [exec ? { kind: "argv", words: rest, origin: "shell-string" } : { kind: "script", source: rest.join(" "), origin: "shell-string" }];
  }
  if (name === "xargs") {
    const rest = argv.slice(skipOptions(argv, 1, XARGS_OPTIONS));
    return [{ kind: "argv", words: rest.length > 0 ? rest : ["echo"], origin: "xargs" }];
  }
  if (name === "find") return findExecs(argv);
  return [];
}
