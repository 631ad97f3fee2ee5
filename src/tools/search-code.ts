import { promises as fs } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { tool } from "@langchain/core/tools";
import { rgPath } from "@vscode/ripgrep";
import { z } from "zod";
import { credentialFilesAllowed, credentialMatcher, credentialRefusal, credentialSearchExclusions } from "../safety/credential-files.js";
import { DEFAULT_OUTPUT_LIMIT_CHARS } from "./read-file.js";
import { ALWAYS_SKIPPED_NAMES } from "../platform/gitignore-filter.js";
import { launch, type Launched } from "../platform/launcher/index.js";
import { truncateLine } from "./lines.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import { keepVerifiedMatches } from "./verified-matches.js";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import { scopeOf } from "./tool-scope.js";

export const SEARCH_TIMEOUT_MS = 20_000;
const MAX_MATCH_LINE_CHARS = 300;
const MAX_STDERR_CHARS = 4000;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      "Regular expression to search for (Rust regex syntax, like PCRE without look-around). Escape special characters such as ( [ { . * + ? | with a backslash to match them literally.",
    ),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      'Only search files matching this glob or these globs, e.g. "*.ts" or ["src/**/*.ts", "!**/*.test.ts"]. A leading "!" excludes; globs containing "/" are matched against paths relative to the workspace root.',
    ),
  path: z.string().optional().describe("Sub-folder (or single file) to search, relative to the workspace root. Omit to search the whole workspace."),
  caseSensitive: z
    .boolean()
    .optional()
    .describe("true: match case exactly; false: ignore case. Omit for smart case (case-insensitive unless the pattern contains an uppercase letter)."),
  maxResults: z.number().int().min(1).max(1000).default(100).describe("Maximum number of matching lines to return (default 100)."),
});

interface RgMatch {
  file: string;
  line: number;
  text: string;
}

/** ripgrep's JSON gives text as `{text}` or, when it is not valid UTF-8, as base64 `{bytes}`. */
function rgText(value: unknown): string {
  if (typeof value !== "object" || value === null) return "";
  if ("text" in value && typeof value.text === "string") return value.text;
  if ("bytes" in value && typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return "";
}

function parseMatch(line: string): RgMatch | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null || !("type" in message) || message.type !== "match") return undefined;
  if (!("data" in message) || typeof message.data !== "object" || message.data === null) return undefined;
  const data = message.data as { path?: unknown; lines?: unknown; line_number?: unknown };
  const file = rgText(data.path).replace(/^\.\//, "");
  const text = rgText(data.lines).replace(/\r?\n$/, "");
  return { file, line: typeof data.line_number === "number" ? data.line_number : 0, text };
}

interface RgRun {
  matches: RgMatch[];
  more: boolean;
  timedOut: boolean;
  exitCode: number | null;
  stderr: string;
  spawnError?: string;
}

async function runRipgrep(root: string, args: string[], maxResults: number): Promise<RgRun> {
  const run: RgRun = { matches: [], more: false, timedOut: false, exitCode: null, stderr: "" };
  let child: Launched;
  try {
    child = await launch(rgPath, args, { cwd: root });
  } catch (error) {
    run.spawnError = (error as Error).message;
    return run;
  }
  const timer = setTimeout(() => {
    run.timedOut = true;
    child.kill("SIGKILL");
  }, SEARCH_TIMEOUT_MS);
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (run.stderr.length < MAX_STDERR_CHARS) run.stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    if (run.more) return;
    const match = parseMatch(line);
    if (!match) return;
    if (run.matches.length >= maxResults) {
      // Enough: stop ripgrep instead of reading every remaining match.
      run.more = true;
      child.kill("SIGTERM");
      return;
    }
    run.matches.push(match);
  });
  const { code } = await child.closed;
  clearTimeout(timer);
  run.exitCode = code;
  return run;
}

const formatMatch = (m: RgMatch): string => `${m.file}:${m.line}: ${truncateLine(m.text.trim(), MAX_MATCH_LINE_CHARS)}`;

interface Shown {
  /** Verified matches that fit the output limit, in ripgrep's order. */
  matches: RgMatch[];
  /** Lines left out because their files changed during the search. */
  dropped: number;
  /** More matches were left because the output limit was reached. */
  cutBySize: boolean;
}

/**
 * The matches to show: not in credential files, checked against the files they are reported from, as many as fit
 * `limit` characters. Only lines that can still be shown are checked (a few batches at most, each file read once per
 * batch): checking the 1,000th line of a search whose output holds 200 would be wasted reads.
 */
async function showVerified(root: string, matches: readonly RgMatch[], limit: number, credentialAt?: (abs: string) => string | undefined): Promise<Shown> {
  const isCredential = new Map<string, boolean>();
  const allowed = (file: string): boolean => {
    let refused = isCredential.get(file);
    if (refused === undefined) {
      refused = credentialAt !== undefined && credentialAt(path.join(root, file)) !== undefined;
      isCredential.set(file, refused);
    }
    return !refused;
  };
  const shown: Shown = { matches: [], dropped: 0, cutBySize: false };
  let used = 0;
  let next = 0;
  while (next < matches.length) {
    // The next matches that would fit if all are verified; when lines are dropped, the loop fills the room they left.
    const batch: RgMatch[] = [];
    let room = used;
    for (let m = matches[next]; m !== undefined; m = matches[++next]) {
      if (!allowed(m.file)) continue;
      const size = formatMatch(m).length + 1;
      if (shown.matches.length + batch.length > 0 && room + size > limit) break;
      batch.push(m);
      room += size;
    }
    if (batch.length === 0) break;
    // ripgrep opens files by path: keep only lines that really are in the workspace file they are reported from.
    const verified = keepVerifiedMatches(root, batch);
    shown.dropped += verified.dropped;
    for (const m of verified.kept) {
      shown.matches.push(m);
      used += formatMatch(m).length + 1;
    }
  }
  shown.cutBySize = next < matches.length;
  return shown;
}

export function createSearchCodeTool(base: ToolNeeds<"outputLimitChars">) {
  return tool(
    async ({ pattern, glob, path: inputPath, caseSensitive, maxResults }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const limit = deps.outputLimitChars ?? DEFAULT_OUTPUT_LIMIT_CHARS;
      const guardCredentials = !credentialFilesAllowed();
      const credentialAt = credentialMatcher();
      const rootCredential = guardCredentials ? credentialAt(deps.root) : undefined;
      if (rootCredential !== undefined) return failure(credentialRefusal(".", rootCredential));
      let scope = ".";
      if (inputPath !== undefined && inputPath !== "" && inputPath !== ".") {
        const resolved = await resolveWorkspacePath(deps.root, inputPath);
        if (!resolved.ok) return failure(resolved.error);
        const exists = await fs.stat(resolved.abs).then(
          () => true,
          () => false,
        );
        if (!exists) {
          return failure(`path "${resolved.rel}" does not exist; call list_directory to find the right folder, or omit path to search everywhere.`);
        }
        scope = resolved.rel;
      }
      const globs = glob === undefined ? [] : Array.isArray(glob) ? glob : [glob];
      const caseFlag = caseSensitive === undefined ? "--smart-case" : caseSensitive ? "--case-sensitive" : "--ignore-case";
      const args = [
        "--json",
        "--no-config",
        "--hidden",
        // Respect .gitignore even when the workspace is not (yet) a git repository.
        "--no-require-git",
        "--sort",
        "path",
        caseFlag,
        ...globs.flatMap((g) => ["--glob", g]),
        // After the model's globs so these exclusions win.
        ...[...ALWAYS_SKIPPED_NAMES].flatMap((name) => ["--glob", `!${name}`]),
        // A workspace holding a home folder must not have its keys searched (no --follow: links are never entered).
        ...(guardCredentials ? credentialSearchExclusions(deps.root) : []).flatMap((g) => ["--glob", g]),
        "--regexp",
        pattern,
        "--",
        scope,
      ];
      const run = await runRipgrep(deps.root, args, maxResults);
      const shown = await showVerified(deps.root, run.matches, limit, guardCredentials ? credentialAt : undefined);
      if (shown.dropped > 0 && shown.matches.length === 0) {
        return failure(
          `the ${shown.dropped} matching lines found were left out: their files changed during the search (a folder on their path was replaced, e.g. by a symlink). Search again once the files are stable.`,
        );
      }
      if (run.spawnError) return failure(`could not run ripgrep (${run.spawnError}); use execute_command with grep -rn instead.`);
      const stderr = run.stderr.trim();
      const where = scope === "." ? "the workspace" : `"${scope}"`;
      if (shown.matches.length === 0 && !run.timedOut && run.exitCode === 2) {
        if (/regex/i.test(stderr)) {
          return failure(
            `invalid regex pattern ${JSON.stringify(pattern)}:\n${stderr}\nFix the pattern (escape special characters such as ( [ { . * + ? | with a backslash to match them literally) and call search_code again.`,
          );
        }
        if (/glob/i.test(stderr)) {
          return failure(`invalid glob ${JSON.stringify(globs)}:\n${stderr}\nFix the glob (e.g. "*.ts" or "src/**/*.ts") and call search_code again.`);
        }
        return failure(`search failed:\n${stderr}\nCheck the arguments and call search_code again.`);
      }
      if (shown.matches.length === 0) {
        if (run.timedOut) {
          return failure(`search timed out after ${SEARCH_TIMEOUT_MS / 1000} s without matches; narrow it with path or glob.`);
        }
        const filters = globs.length > 0 ? ` with glob ${JSON.stringify(globs)}` : "";
        return success(
          `No matches for /${pattern}/ in ${where}${filters} (files ignored by .gitignore are not searched). ` +
            "Broaden the search: try a shorter or simpler pattern, caseSensitive=false, fewer globs, or a wider path.",
        );
      }

      const out = shown.matches.map(formatMatch);
      const files = new Set(shown.matches.map((m) => m.file)).size;
      const cutBySize = shown.cutBySize;
      const notes: string[] = [];
      if (run.more || cutBySize) {
        notes.push(
          `[showing the first ${out.length} matches; more exist. Narrow with path, glob or a more specific pattern${run.more ? `, or raise maxResults (now ${maxResults})` : ""}]`,
        );
      }
      if (shown.dropped > 0) {
        notes.push(`[${shown.dropped} matching lines left out: their files changed during the search; search again if you need them]`);
      }
      if (run.timedOut) notes.push(`[search timed out after ${SEARCH_TIMEOUT_MS / 1000} s; results are incomplete; narrow it with path or glob]`);
      if (run.exitCode === 2 && stderr) notes.push(`[some files could not be searched: ${truncateLine(stderr.split("\n")[0] ?? "", 200)}]`);
      const header = `${out.length} matching line${out.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"} for /${pattern}/ in ${where} (format path:line: text):`;
      return success([header, ...out, ...notes].join("\n"));
    },
    {
      name: "search_code",
      description:
        "Search file contents in the workspace with a regular expression (ripgrep). Returns matching lines as `path:line: text`, sorted by path. " +
        'Respects .gitignore; skips .git, node_modules and .mini-cursor. Filter files with glob (e.g. "*.ts") and folders with path. ' +
        "Use it to find definitions and usages, then read_file around the reported line numbers.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
