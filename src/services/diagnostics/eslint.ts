import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { runChecker, type CheckerRunOptions } from "./checker-command.js";
import { shellQuote, type Problem } from "./problems.js";

const CONFIG_FILES = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
  ".eslintrc",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.json",
  ".eslintrc.yml",
  ".eslintrc.yaml",
];

/** Files ESLint looks at by default; others are not sent to it. */
export const ESLINT_EXTENSIONS = /\.(?:[cm]?[jt]sx?)$/;
/** JSON of a big project's report can be large; cut JSON cannot be read. */
const OUTPUT_LIMIT_CHARS = 20_000_000;

/** Whether the project configures ESLint and has it installed (its own, at the workspace root). */
export function projectHasEslint(root: string): boolean {
  if (!existsSync(path.join(root, "node_modules", "eslint", "package.json"))) return false;
  if (CONFIG_FILES.some((name) => existsSync(path.join(root, name)))) return true;
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { eslintConfig?: unknown };
    return pkg.eslintConfig !== undefined;
  } catch {
    return false;
  }
}

interface EslintFileResult {
  filePath: string;
  messages: { ruleId: string | null; severity: number; message: string; line?: number; column?: number }[];
}

export type EslintOutcome = { kind: "problems"; problems: Problem[] } | { kind: "failed"; reason: string } | { kind: "timeout" };

/**
 * Runs the project's ESLint on `targets` (relative paths, or "." for the project) in the read-only sandbox, like a
 * command, and reads its JSON report. Errors only: warnings are the project's choice to tolerate.
 */
export async function runEslint(root: string, targets: string[], o: CheckerRunOptions): Promise<EslintOutcome> {
  const command = `node node_modules/eslint/bin/eslint.js --format json -- ${targets.map(shellQuote).join(" ")}`;
  const run = await runChecker(root, command, OUTPUT_LIMIT_CHARS, o);
  if (run.timedOut) return { kind: "timeout" };
  if (run.spawnError) return { kind: "failed", reason: run.spawnError };
  const start = run.output.indexOf("[");
  let report: EslintFileResult[];
  try {
    report = JSON.parse(run.output.slice(start, run.output.lastIndexOf("]") + 1)) as EslintFileResult[];
  } catch {
    const line =
      run.output
        .trim()
        .split("\n")
        .find((l) => l.trim() !== "") ?? `exit code ${run.exitCode}`;
    return { kind: "failed", reason: `ESLint did not produce a report (${line.slice(0, 200)})` };
  }
  const problems: Problem[] = [];
  for (const file of report) {
    const rel = path.relative(root, file.filePath).split(path.sep).join("/");
    for (const m of file.messages) {
      // "File ignored because ..." comes without a rule; it is not a problem of the file.
      if (m.severity !== 2 || (m.ruleId === null && /ignored/i.test(m.message))) continue;
      problems.push({ file: rel, line: m.line ?? 1, col: m.column ?? 1, code: m.ruleId ?? "eslint", message: m.message.replace(/\s+/g, " ") });
    }
  }
  return { kind: "problems", problems };
}
