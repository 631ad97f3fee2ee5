import os from "node:os";
import { launch, LaunchError, type Launched } from "../../platform/launcher/index.js";
import { GitCommandError, GitUnavailableError } from "./errors.js";

/** `--pathspec-from-file` for checkout and rm arrived in git 2.26. */
const MIN_VERSION: readonly [number, number] = [2, 26];

const POSIX = process.platform !== "win32";

/**
 * Passed on every call, so they beat whatever the shadow repo's config file says (a workspace could ship a
 * crafted `.mini-cursor/shadow.git/config`): no hooks, no fsmonitor command, no line-ending or filter
 * conversion, no signing, no background gc, stable diff output.
 */
const CONFIG: readonly string[] = [
  "core.autocrlf=false",
  "core.safecrlf=false",
  `core.fileMode=${POSIX}`,
  `core.symlinks=${POSIX}`,
  `core.hooksPath=${os.devNull}`,
  "core.fsmonitor=false",
  "core.quotePath=false",
  `core.excludesFile=${os.devNull}`,
  `core.attributesFile=${os.devNull}`,
  "core.sparseCheckout=false",
  "core.splitIndex=false",
  "core.untrackedCache=false",
  "commit.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "advice.addEmbeddedRepo=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.renames=false",
  "color.ui=false",
].flatMap((setting) => ["-c", setting]);

/** Kept from the caller's environment even though it starts with GIT_: some installs need it to find git's helpers. */
const KEPT_GIT_VARS: ReadonlySet<string> = new Set(["GIT_EXEC_PATH"]);

export interface GitSetup {
  gitDir: string;
  workTree: string;
  /** Base environment (PATH, HOME); every GIT_* and locale variable of it is replaced. */
  env: NodeJS.ProcessEnv;
  binary: string;
}

export interface GitCall {
  /** GIT_INDEX_FILE: each session stages into its own index, never the user's. */
  index?: string;
  input?: Buffer | string;
  /** Extra `-c` settings for this call only. */
  config?: readonly string[];
  /** Exit codes that are not failures (default: only 0). */
  okCodes?: readonly number[];
}

export interface GitOutput {
  code: number;
  stdout: Buffer;
  stderr: string;
}

function isolatedEnv(base: NodeJS.ProcessEnv, index: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (name.startsWith("GIT_") && !KEPT_GIT_VARS.has(name)) continue;
    if (name === "LANG" || name === "LANGUAGE" || name.startsWith("LC_")) continue;
    env[name] = value;
  }
  Object.assign(env, {
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    // File names are data, never glob patterns.
    GIT_LITERAL_PATHSPECS: "1",
    GIT_AUTHOR_NAME: "mini-cursor",
    GIT_AUTHOR_EMAIL: "mini-cursor@localhost",
    GIT_COMMITTER_NAME: "mini-cursor",
    GIT_COMMITTER_EMAIL: "mini-cursor@localhost",
  });
  if (index !== undefined) env.GIT_INDEX_FILE = index;
  return env;
}

async function spawnGit(binary: string, args: string[], cwd: string, env: Record<string, string>, input?: Buffer | string): Promise<GitOutput> {
  let child: Launched;
  try {
    child = await launch(binary, args, { cwd, env, ...(input === undefined ? {} : { input }) });
  } catch (error) {
    if (error instanceof LaunchError && error.code === "ENOENT") {
      throw new GitUnavailableError(`undo needs git, which was not found (looked for "${binary}" on PATH); install git to record and undo session changes`);
    }
    throw error;
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const { code } = await child.closed;
  return { code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") };
}

const checkedVersions = new Map<string, Promise<void>>();

/** Once per git binary and PATH: present and recent enough, else a GitUnavailableError saying which. */
function ensureUsableGit(setup: GitSetup): Promise<void> {
  const key = `${setup.binary}\0${setup.env.PATH ?? ""}`;
  let check = checkedVersions.get(key);
  if (!check) {
    check = spawnGit(setup.binary, ["--version"], setup.workTree, isolatedEnv(setup.env, undefined)).then(({ stdout }) => {
      const text = stdout.toString("utf8").trim();
      const match = /(\d+)\.(\d+)/.exec(text);
      const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
      if (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1])) {
        throw new GitUnavailableError(`undo needs git ${MIN_VERSION.join(".")} or newer, found "${text || "unknown"}"`);
      }
    });
    // A failed check is retried next time (git may get installed meanwhile).
    check.catch(() => checkedVersions.delete(key));
    checkedVersions.set(key, check);
  }
  return check;
}

/** One literal word for POSIX sh. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function firstErrorLine(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "no error output";
}

/** Runs git on the shadow repo with the workspace as work tree, isolated from the user's git setup. */
export class GitRunner {
  constructor(private readonly setup: GitSetup) {}

  async run(args: string[], call: GitCall = {}): Promise<GitOutput> {
    await ensureUsableGit(this.setup);
    const extra = (call.config ?? []).flatMap((setting) => ["-c", setting]);
    const full = [`--git-dir=${this.setup.gitDir}`, `--work-tree=${this.setup.workTree}`, ...CONFIG, ...extra, ...args];
    const result = await spawnGit(this.setup.binary, full, this.setup.workTree, isolatedEnv(this.setup.env, call.index), call.input);
    if (!(call.okCodes ?? [0]).includes(result.code)) {
      throw new GitCommandError(`git ${args[0] ?? ""} failed (exit ${result.code}): ${firstErrorLine(result.stderr)}`);
    }
    return result;
  }

  /**
   * Several git commands in one `sh` process: each spawn from this process forks all of it (over 100 MB), while the
   * shell's own forks are cheap. `body` runs git as `g ARGS...` (with the same isolation as `run`); values reach it
   * only as positional parameters ($1...), never spliced into the script.
   */
  async script(body: string, params: readonly string[], call: Pick<GitCall, "index"> = {}): Promise<GitOutput> {
    await ensureUsableGit(this.setup);
    const prefix = [this.setup.binary, `--git-dir=${this.setup.gitDir}`, `--work-tree=${this.setup.workTree}`, ...CONFIG].map(shellWord).join(" ");
    const full = `g() { ${prefix} "$@"; }\n${body}`;
    return spawnGit("/bin/sh", ["-c", full, "sh", ...params], this.setup.workTree, isolatedEnv(this.setup.env, call.index));
  }

  /** stdout as text with the final newline removed. */
  async text(args: string[], call: GitCall = {}): Promise<string> {
    return (await this.run(args, call)).stdout.toString("utf8").replace(/\n$/, "");
  }

  /** `-z` output split on NUL, without the empty tail. */
  async records(args: string[], call: GitCall = {}): Promise<string[]> {
    const text = (await this.run(args, call)).stdout.toString("utf8");
    return text.split("\0").filter((part) => part.length > 0);
  }
}
