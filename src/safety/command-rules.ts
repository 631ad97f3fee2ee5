import path from "node:path";
import { allowingPatterns, matchesText } from "./command-patterns.js";
import { resolvePath, type PathContext } from "./command-paths.js";
import { operands } from "./command-wrappers.js";
import { credentialRead } from "./credential-rule.js";
import { isKnownReadOnly } from "./read-only-commands.js";
import { findDelete, gitClean, recursiveDelete, syncDelete, xargsDelete } from "./delete-rules.js";
import { gitPush, imagePush, packagePublish, releasePublish } from "./publish-rules.js";
import { powershellDownloadExec, remoteCodeExec } from "./remote-exec-rule.js";
import type { CommandRule, RuleHit } from "./rule-context.js";
import { parseShell, type ParsedShell, type PipePosition, type SimpleCommand } from "./shell-words.js";
import { diskWipe, forkBomb, moveAway, permissionLockout } from "./system-rules.js";

export { allowingPatterns, commandPatternFor, matchesPattern, matchesText } from "./command-patterns.js";

/**
 * Decides, without running anything, whether a shell command the model chose is denied outright, allowed by the
 * user's rules, or needs the user's approval. Built-in denies cover destroying the workspace, home or disks,
 * publishing (git push, npm publish, …), running downloaded code and reading credentials. Deny beats allow.
 *
 * It reads the line as bash would, but it is a filter, not a sandbox: what a command does at run time (a
 * package.json script, a Makefile, a script file, `python -c "os.system(…)"`, values computed by `$( … )`)
 * is invisible here, so the file-system and network sandboxes remain the real boundary.
 */

export interface CommandRulesContext {
  /** Absolute workspace root. */
  workspace: string;
  /** Absolute home folder. */
  home: string;
  /** Folder the command runs in, absolute or relative to the workspace; default the workspace. */
  cwd?: string;
  rules?: { allow?: string[]; deny?: string[] };
}

export interface CommandEvaluation {
  decision: "deny" | "allow" | "ask";
  /** One sentence for the model (on deny) or the user. */
  reason: string;
  /** The built-in rule id, "user-deny" or "user-allow"; absent for "ask". */
  rule?: string;
  /** The user pattern that decided, for "user-deny" / "user-allow". */
  pattern?: string;
}

export const BUILT_IN_RULES: ReadonlyArray<CommandRule> = [
  recursiveDelete,
  xargsDelete,
  findDelete,
  gitClean,
  syncDelete,
  moveAway,
  permissionLockout,
  diskWipe,
  gitPush,
  packagePublish,
  imagePush,
  releasePublish,
  remoteCodeExec,
  credentialRead,
];

function absolute(p: string): string {
  return path.posix.resolve("/", p);
}

/** Whether `inner` runs inside every group/command that `outer` does (so a `cd` in `outer` reaches it). */
function sharesScope(outer: readonly PipePosition[], inner: readonly PipePosition[]): boolean {
  const a = outer.slice(1);
  const b = inner.slice(1);
  if (a.length > b.length) return false;
  const tail = b.slice(b.length - a.length);
  return a.every((p, i) => p.pipeline === tail[i]?.pipeline && p.stage === tail[i]?.stage);
}

/** The folder each command runs in, following `cd` / `pushd` but not out of subshells or `bash -c`. */
function workingFolders(parsed: ParsedShell, start: string, paths: PathContext): Array<string | undefined> {
  const moves: Array<{ scope: PipePosition[]; cwd: string | undefined }> = [];
  return parsed.commands.map((command) => {
    const cwd = [...moves].reverse().find((m) => sharesScope(m.scope, command.pipes))?.cwd ?? start;
    const [name = "", ...args] = command.argv;
    if (name === "cd" || name === "pushd" || name === "popd") {
      const target = name === "popd" ? "-" : operands(args)[0];
      const next = target === undefined ? paths.home : target === "-" ? undefined : resolvePath(target, { ...paths, cwd }, "empty");
      const folder = typeof next === "object" ? (next.emptied.length > 0 ? undefined : next.path) : next;
      moves.push({ scope: command.pipes, cwd: folder });
    }
    return cwd;
  });
}

function builtInDenial(command: string, parsed: ParsedShell, ctx: CommandRulesContext): RuleHit | undefined {
  const workspace = absolute(ctx.workspace);
  const paths: PathContext = { workspace, home: absolute(ctx.home), cwd: workspace };
  const start = ctx.cwd === undefined ? workspace : path.posix.resolve(workspace, ctx.cwd);
  const folders = workingFolders(parsed, start, paths);
  for (const simple of parsed.commands) {
    const env = { paths: { ...paths, cwd: folders[simple.index] }, parsed };
    for (const rule of BUILT_IN_RULES) {
      const hit = rule(simple, env);
      if (hit) return hit;
    }
  }
  return forkBomb(command) ?? powershellDownloadExec(command);
}

/** The texts a user deny pattern is tried on: the line, each command as written, and unwrapped (`sudo x` → `x`). */
function denyTexts(command: string, parts: readonly SimpleCommand[]): string[] {
  return [command, ...parts.flatMap((p) => [p.text, p.words.join(" "), p.argv.join(" ")])];
}

/** What cannot be read fully cannot be checked: denied, since padding must not hide a dangerous part. */
function tooComplex(what: string): CommandEvaluation {
  return { decision: "deny", reason: `This command ${what} to be checked safely; split it into smaller, simpler commands.`, rule: "too-complex" };
}

/** Real commands are far shorter; longer ones are not analysed. */
const MAX_COMMAND_LENGTH = 100_000;

function evaluate(command: string, ctx: CommandRulesContext): CommandEvaluation {
  if (command.length > MAX_COMMAND_LENGTH) return tooComplex("is too long");
  const parsed = parseShell(command);
  if (parsed.truncated) return tooComplex("nests too deeply or chains too many commands");
  const builtIn = builtInDenial(command, parsed, ctx);
  if (builtIn) return { decision: "deny", reason: builtIn.reason, rule: builtIn.rule };
  const texts = denyTexts(command, parsed.commands);
  for (const pattern of ctx.rules?.deny ?? []) {
    if (texts.some((t) => matchesText(t, pattern))) {
      return {
        decision: "deny",
        reason: `This command matches the deny rule "${pattern}" in the safety settings; do it another way or ask the user.`,
        rule: "user-deny",
        pattern,
      };
    }
  }
  const allowing = allowingPatterns(command, ctx.rules?.allow ?? [], parsed);
  if (allowing.length > 0) {
    const quoted = allowing.map((p) => `"${p}"`).join(", ");
    return { decision: "allow", reason: `Allowed by the rule${allowing.length > 1 ? "s" : ""} ${quoted}.`, rule: "user-allow", pattern: allowing[0] };
  }
  if (isKnownReadOnly(parsed))
    return { decision: "allow", reason: "A read-only command (every part of it only reads): it runs without asking.", rule: "read-only" };
  if (!parsed.complete)
    return { decision: "ask", reason: "The command could not be read completely (unbalanced quotes or brackets, or too deeply nested); ask the user." };
  return { decision: "ask", reason: "No rule allows or denies this command; ask the user." };
}

export function evaluateCommand(command: string, ctx: CommandRulesContext): CommandEvaluation {
  try {
    return evaluate(command, ctx);
  } catch {
    // A rules bug must not let a command through unchecked: fall back to asking.
    return { decision: "ask", reason: "The command could not be checked by the safety rules; ask the user." };
  }
}
