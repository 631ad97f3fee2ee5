import type { DiagnosticsCommand } from "../../platform/config/index.js";
import { stripAnsi } from "../commands/output-capture.js";
import { runChecker, type CheckerRunOptions } from "./checker-command.js";
import { shellQuote, type Problem } from "./problems.js";

export type CommandOutcome = { kind: "problems"; problems: Problem[] } | { kind: "failed"; reason: string } | { kind: "timeout" };

const OUTPUT_LIMIT_CHARS = 200_000;
const MAX_LINE_CHARS = 300;

export function commandApplies(command: DiagnosticsCommand, file: string): boolean {
  return command.extensions === undefined || command.extensions.some((ext) => file.endsWith(ext));
}

/** `ruff check` from `ruff check {file}`: how the command's problems are labelled. */
function commandName(command: string): string {
  return (
    command
      .replace(/\{file\}.*$/, "")
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .join(" ") || "command"
  );
}

/**
 * Runs one configured command with `{file}` replaced (quoted) in the read-only sandbox. Exit 0 is "no problems". Else
 * each output line of the form `path:line[:col][:] message` becomes a problem (most linters print that, e.g. ruff,
 * mypy, flake8, shellcheck -f gcc); output in another form becomes one problem with its first line.
 */
export async function runDiagnosticsCommand(root: string, command: DiagnosticsCommand, target: string, o: CheckerRunOptions): Promise<CommandOutcome> {
  const run = await runChecker(root, command.command.replaceAll("{file}", shellQuote(target)), OUTPUT_LIMIT_CHARS, o);
  if (run.timedOut) return { kind: "timeout" };
  if (run.spawnError) return { kind: "failed", reason: run.spawnError };
  if (run.exitCode === 0) return { kind: "problems", problems: [] };
  const name = commandName(command.command);
  const problems: Problem[] = [];
  const lines = stripAnsi(run.output).split("\n");
  for (const line of lines) {
    const m = /^\s*(?:\.\/)?([^\s:][^:]*):(\d+)(?::(\d+))?:?\s*(.+)$/.exec(line);
    if (!m) continue;
    const [, file = target, lineNo = "1", col = "1", message = ""] = m;
    problems.push({ file, line: Number(lineNo), col: Number(col), code: name, message: message.trim().slice(0, MAX_LINE_CHARS) });
  }
  if (problems.length === 0) {
    const first = lines.map((l) => l.trim()).find((l) => l !== "") ?? `exit code ${run.exitCode}`;
    problems.push({
      file: target === "." ? "." : target,
      line: 1,
      col: 1,
      code: name,
      message: `exit code ${run.exitCode}: ${first.slice(0, MAX_LINE_CHARS)}`,
    });
  }
  return { kind: "problems", problems };
}
