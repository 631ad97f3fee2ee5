import { shellInvocation, SHELLS } from "./nested-commands.js";
import { shown, type CommandRule, type RuleHit } from "./rule-context.js";
import type { SimpleCommand } from "./shell-words.js";

/**
 * Code fetched from the network and run at once: `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`,
 * `eval "$(wget -O- …)"`, `iwr … | iex`. Downloading to a file and running it later is left to the approval
 * question.
 */

const DOWNLOADERS = new Set([
  "curl",
  "wget",
  "fetch",
  "http",
  "https",
  "xh",
  "lwp-request",
  "get",
  "iwr",
  "irm",
  "invoke-webrequest",
  "invoke-restmethod",
  "nc",
  "ncat",
  "netcat",
  "socat",
]);
const INTERPRETER = /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|perl|ruby|php[\d.]*|lua[\d.]*|pwsh|powershell|osascript|tclsh)$/;
/** Options that make an interpreter run code from an argument instead of stdin or a file. */
const CODE_OPTIONS = new Set(["-c", "-m", "-e", "-E", "-r", "-p", "--eval", "--print", "-command", "-Command", "-f", "-file", "-File"]);

function isDownloader(command: SimpleCommand): boolean {
  return DOWNLOADERS.has((command.argv[0] ?? "").toLowerCase());
}

function name(command: SimpleCommand): string {
  return (command.argv[0] ?? "").toLowerCase();
}

/** Whether the command runs whatever arrives on its stdin as code. */
function runsStdin(command: SimpleCommand): boolean {
  const program = name(command);
  if (program === "iex" || program === "invoke-expression") return true;
  const shell = SHELLS.has(program);
  if (!shell && !INTERPRETER.test(program)) return false;
  // `xargs sh -c '…'` runs lines of its input as code too.
  if (command.origin === "xargs") return true;
  if (shell) return shellInvocation(command.argv).readsStdin;
  const args = command.argv.slice(1);
  const code = args.findIndex((a) => CODE_OPTIONS.has(a));
  if (code >= 0) return args[code + 1] === "-";
  const operand = args.find((a) => !a.startsWith("-") || a === "-");
  return operand === undefined || operand === "-" || operand === "/dev/stdin";
}

/** Whether the command runs its arguments or a file (which may be a `<( … )`) as code. */
function runsArguments(command: SimpleCommand): boolean {
  const program = name(command);
  if (["eval", "source", ".", "iex", "invoke-expression"].includes(program)) return true;
  return SHELLS.has(program) || INTERPRETER.test(program) || /^(?:\$\(|`)/.test(command.argv[0] ?? "");
}

function feeds(from: SimpleCommand, to: SimpleCommand): boolean {
  return to.pipes.some((p) => from.pipes.some((q) => q.pipeline === p.pipeline && q.stage < p.stage));
}

function hit(command: SimpleCommand): RuleHit {
  return {
    rule: "remote-code-exec",
    reason: `${shown(command)} would run code downloaded from the network without review; download it to a file (e.g. \`curl -fsSLo install.sh URL\`), read it, and ask the user before running it.`,
  };
}

export const remoteCodeExec: CommandRule = (command, env) => {
  const all = env.parsed.commands;
  if (runsStdin(command)) {
    const source = all.find((other) => other !== command && isDownloader(other) && feeds(other, command));
    if (source) return hit(command);
  }
  if (!isDownloader(command)) return undefined;
  // Walk out through substitutions: `bash <(curl …)`, `sh -c "$(curl …)"`, `$(curl …)` as the program itself.
  for (let inner: SimpleCommand | undefined = command; inner?.parent !== undefined;) {
    if (inner.origin !== "command-substitution" && inner.origin !== "process-substitution") break;
    const outer: SimpleCommand | undefined = all[inner.parent];
    if (outer && runsArguments(outer)) return hit(outer);
    inner = outer;
  }
  return undefined;
};

/** PowerShell's `iex (iwr …)` / `IEX (New-Object Net.WebClient).DownloadString(…)` do not parse as bash. */
export function powershellDownloadExec(line: string): RuleHit | undefined {
  if (!/\b(?:iex|invoke-expression)\b/i.test(line)) return undefined;
  if (!/\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|curl|wget)\b/i.test(line)) return undefined;
  return {
    rule: "remote-code-exec",
    reason:
      "This would run code downloaded from the network (PowerShell Invoke-Expression) without review; download it to a file, read it, and ask the user before running it.",
  };
}
