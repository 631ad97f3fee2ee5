import type * as ChildProcess from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import type { ProgramRun, RunProgramOptions } from "./run-program.js";
import { configStamp } from "./git-guard-cache.js";

/**
 * Every git run of mini-cursor's, and the one idea of what makes one safe:
 *
 * - it starts no program that a repository or a workspace names: no hooks, no fsmonitor command, no filter driver of
 *   the repository's own config, no signing program;
 * - it waits for nobody (no credential prompt) and leaves nothing running (no background gc or maintenance);
 * - it works on the repository it is given, whatever the caller's environment says (GIT_DIR, GIT_INDEX_FILE, ...);
 * - output is stable for parsing (C locale, unquoted paths).
 *
 * Two scopes on top of that:
 * - "repository": the person's own repository (`run --worktree`, the data folder's exclude rule). Their system and
 *   global config stay in force (their identity, global excludes, an LFS filter they installed), as do the
 *   GIT_CONFIG_* and identity variables of their environment. The repository's own config (.git/config,
 *   config.worktree and what they include) is the project's, which a command may have written: the filter drivers it
 *   defines are switched off for the run (read first with `git config --show-scope`), for the commands that can read
 *   file contents. What was read is kept while .git/config and config.worktree keep their inode, size and change
 *   time (a write changes them; a process cannot set a change time back), and never when the config includes files.
 * - "private": a repository of ours (undo's shadow store), which nothing of the person's reaches: no system or global
 *   config, no attributes or excludes file, no GIT_* variable but GIT_EXEC_PATH, a fixed identity, file names as
 *   literal pathspecs, no line-ending conversion. Its filters are off through PRIVATE_ATTRIBUTES, which such a
 *   repository keeps in its info/attributes (src/sessions/undo/shadow-repo.ts).
 */
export type GitScope = "repository" | "private";

const POSIX = process.platform !== "win32";

const EVERY_RUN: readonly string[] = [
  `core.hooksPath=${os.devNull}`,
  "core.fsmonitor=false",
  "commit.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "core.quotePath=false",
];

/** Passed on every call, so they beat whatever the shadow repository's config says (a workspace could ship one). */
const PRIVATE_RUN: readonly string[] = [
  "core.autocrlf=false",
  "core.safecrlf=false",
  `core.fileMode=${POSIX}`,
  `core.symlinks=${POSIX}`,
  `core.excludesFile=${os.devNull}`,
  `core.attributesFile=${os.devNull}`,
  "core.sparseCheckout=false",
  "core.splitIndex=false",
  "core.untrackedCache=false",
  "advice.addEmbeddedRepo=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.renames=false",
  "color.ui=false",
];

/**
 * A private repository's `info/attributes`, which outranks every .gitattributes of the work tree: no end-of-line
 * conversion, clean/smudge filter, ident or re-encoding, so the repository holds each file's exact bytes and gives
 * them back unchanged; and no filter of its config (a workspace could ship one) ever runs.
 */
export const PRIVATE_ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

/** The `-c` arguments every run of the scope gets (before the command). */
export function gitConfigArgs(scope: GitScope): string[] {
  return (scope === "private" ? [...EVERY_RUN, ...PRIVATE_RUN] : EVERY_RUN).flatMap((setting) => ["-c", setting]);
}

/** The person's git variables a run in their repository keeps: where their config is, and who they are. */
const KEPT_IN_REPOSITORY = /^GIT_(EXEC_PATH|CONFIG_(GLOBAL|SYSTEM|NOSYSTEM|PARAMETERS|COUNT|KEY_\d+|VALUE_\d+)|(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE))$/;
/** Kept in a private run although it starts with GIT_: some installs need it to find git's helpers. */
const KEPT_IN_PRIVATE = /^GIT_EXEC_PATH$/;

const PRIVATE_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_ATTR_NOSYSTEM: "1",
  // File names are data, never glob patterns.
  GIT_LITERAL_PATHSPECS: "1",
  GIT_AUTHOR_NAME: "mini-cursor",
  GIT_AUTHOR_EMAIL: "mini-cursor@localhost",
  GIT_COMMITTER_NAME: "mini-cursor",
  GIT_COMMITTER_EMAIL: "mini-cursor@localhost",
};

/** The environment of a run: `base` without the git variables the scope drops (and, private, the locale), plus `extra`. */
export function gitEnv(scope: GitScope, base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const kept = scope === "private" ? KEPT_IN_PRIVATE : KEPT_IN_REPOSITORY;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || (name.startsWith("GIT_") && !kept.test(name))) continue;
    if (scope === "private" && (name === "LANG" || name === "LANGUAGE" || name.startsWith("LC_"))) continue;
    env[name] = value;
  }
  return { ...env, LC_ALL: "C", GIT_TERMINAL_PROMPT: "0", ...(scope === "private" ? PRIVATE_ENV : {}), ...extra };
}

export interface GitRunOptions {
  scope: GitScope;
  cwd: string;
  /** The base environment (PATH, HOME, the person's git variables); gitEnv decides what of it git sees. */
  env: NodeJS.ProcessEnv;
  /** Added to the environment after the scope's (an identity, GIT_INDEX_FILE). */
  extraEnv?: Record<string, string>;
  /** Extra `-c` settings for this call only. */
  config?: readonly string[];
  input?: string | Buffer;
  timeoutMs?: number;
  /** The git executable; "git" on PATH by default. */
  binary?: string;
}

export interface GitRun {
  /** The exit code; 127 when git could not run (`missing`: not found) or was killed. */
  code: number;
  stdout: Buffer;
  stderr: string;
  missing: boolean;
}

/** Commands that read no file contents of the work tree, so no filter can run: no need to look for one first. */
const READS_NO_CONTENT: ReadonlySet<string> = new Set(["config", "rev-parse", "check-ignore", "branch", "for-each-ref", "symbolic-ref", "--version"]);

function command(args: readonly string[]): string {
  return args.find((a) => !a.startsWith("-") || a === "--version") ?? "";
}

/**
 * `config --show-scope` lines ("local\tfilter.x.clean") to the settings that switch the repository's own drivers off,
 * and whether the repository's own config includes other files (then the guard is read again on every run: an
 * included file may change without the config files changing).
 */
function filterOverrides(listing: string): { guard: string[]; includes: boolean } {
  const names = new Set<string>();
  let includes = false;
  for (const line of listing.split("\n")) {
    const [scope, key = ""] = line.split("\t");
    const own = scope === "local" || scope === "worktree";
    const name = /^filter\.(.+)\.[^.]+$/s.exec(key)?.[1];
    if (own && name !== undefined) names.add(name);
    if (own && /^include(if)?\./.test(key)) includes = true;
  }
  // An empty command runs nothing (git skips it); not required, so a skipped filter is no error.
  const guard = [...names].flatMap((n) => [`filter.${n}.clean=`, `filter.${n}.smudge=`, `filter.${n}.process=`, `filter.${n}.required=false`]);
  return { guard, includes };
}

const FILTER_LISTING = ["config", "--show-scope", "--name-only", "--get-regexp", "^(filter|include|includeif)\\."];

/**
 * Each repository's guard, with the stamp of the config files it was read from (src/platform/git-guard-cache.ts):
 * while they are unchanged, a run needs no listing of its own (one git process fewer for every status or diff).
 */
const guards = new Map<string, { stamp: string; guard: string[] }>();

function toGitRun(ran: ProgramRun): GitRun {
  return { code: ran.code ?? 127, stdout: ran.stdout, stderr: ran.stderr, missing: ran.startError?.code === "ENOENT" };
}

/** Both loaded on first use: node:child_process (also the launcher's) costs a `sessions` listing ~2 ms to import. */
async function runProgram(file: string, args: readonly string[], options: RunProgramOptions): Promise<ProgramRun> {
  return (await import("./run-program.js")).runProgram(file, args, options);
}
const childProcess = (): typeof ChildProcess => createRequire(import.meta.url)("node:child_process") as typeof ChildProcess;

/** Runs git with the scope's settings and environment, arguments passed as they are (no shell). Never rejects. */
export async function runGit(args: readonly string[], o: GitRunOptions): Promise<GitRun> {
  const env = gitEnv(o.scope, o.env, o.extraEnv);
  const run = async (full: readonly string[]) =>
    toGitRun(await runProgram(o.binary ?? "git", full, { cwd: o.cwd, env, timeoutMs: o.timeoutMs, ...(o.input === undefined ? {} : { input: o.input }) }));
  let guard: string[] = [];
  if (o.scope === "repository" && !READS_NO_CONTENT.has(command(args))) {
    const stamp = await configStamp(o.cwd);
    const kept = stamp === null ? undefined : guards.get(o.cwd);
    if (kept && kept.stamp === stamp) guard = kept.guard;
    else {
      const listing = await run([...gitConfigArgs(o.scope), ...FILTER_LISTING]);
      // 1 is "no filter"; a listing that failed otherwise (a timeout) fails the run rather than run unguarded.
      if (listing.code !== 0 && listing.code !== 1) return listing;
      const read = filterOverrides(listing.stdout.toString("utf8"));
      guard = read.guard;
      // The stamp was taken before the listing: a change made meanwhile makes the next run read it again.
      if (stamp !== null && !read.includes) guards.set(o.cwd, { stamp, guard });
      else guards.delete(o.cwd);
    }
  }
  return run([...gitConfigArgs(o.scope), ...[...guard, ...(o.config ?? [])].flatMap((s) => ["-c", s]), ...args]);
}

/**
 * runGit for a synchronous caller (the data folder's exclude rule, made while opening the database or taking the
 * workspace lock, both synchronous). Spawns from this process: the launcher has no synchronous form. Only for the
 * commands that read no file contents; stdout, or null when git failed or is missing.
 */
export function runGitSync(args: readonly string[], o: Omit<GitRunOptions, "input" | "config">): string | null {
  if (o.scope === "repository" && !READS_NO_CONTENT.has(command(args))) throw new Error(`runGitSync: git ${command(args)} may run filters; use runGit`);
  const result = childProcess().spawnSync(o.binary ?? "git", [...gitConfigArgs(o.scope), ...args], {
    cwd: o.cwd,
    env: gitEnv(o.scope, o.env, o.extraEnv),
    encoding: "utf8",
    timeout: o.timeoutMs,
    stdio: ["ignore", "pipe", "ignore"],
  });
  return result.status === 0 ? result.stdout : null;
}

/** One literal word for POSIX sh. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Several git commands in one `sh` process (each spawn costs a fork; the shell's are cheap). `body` runs git as
 * `g ARGS...`, with `leading` (e.g. --git-dir) and the scope's settings; values reach it only as positional
 * parameters ($1...), never spliced into the script. Private scope only: the script cannot guard each command.
 */
export async function runGitScript(
  body: string,
  params: readonly string[],
  leading: readonly string[],
  o: Omit<GitRunOptions, "scope" | "config">,
): Promise<GitRun> {
  const prefix = [o.binary ?? "git", ...leading, ...gitConfigArgs("private")].map(shellWord).join(" ");
  const script = `g() { ${prefix} "$@"; }\n${body}`;
  const ran = await runProgram("/bin/sh", ["-c", script, "sh", ...params], {
    cwd: o.cwd,
    env: gitEnv("private", o.env, o.extraEnv),
    timeoutMs: o.timeoutMs,
    ...(o.input === undefined ? {} : { input: o.input }),
  });
  return toGitRun(ran);
}
