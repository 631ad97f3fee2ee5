import { runGit, runGitScript, type GitRun } from "../../platform/git.js";
import { GitCommandError, GitUnavailableError } from "./errors.js";

/** `--pathspec-from-file` for checkout and rm arrived in git 2.26. */
const MIN_VERSION: readonly [number, number] = [2, 26];

export interface GitSetup {
  gitDir: string;
  workTree: string;
  /** Base environment (PATH, HOME); every GIT_* and locale variable of it is replaced (src/platform/git.ts, "private"). */
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

/** A run of git on the shadow store: the "private" scope of src/platform/git.ts, whose settings beat the store's own config. */
async function privateGit(setup: GitSetup, args: string[], call: GitCall = {}): Promise<GitOutput> {
  const ran = await runGit(args, {
    scope: "private",
    cwd: setup.workTree,
    env: setup.env,
    binary: setup.binary,
    ...(call.index === undefined ? {} : { extraEnv: { GIT_INDEX_FILE: call.index } }),
    ...(call.config === undefined ? {} : { config: call.config }),
    ...(call.input === undefined ? {} : { input: call.input }),
  });
  return output(setup, ran);
}

function output(setup: GitSetup, ran: GitRun): GitOutput {
  if (ran.missing) {
    throw new GitUnavailableError(`undo needs git, which was not found (looked for "${setup.binary}" on PATH); install git to record and undo session changes`);
  }
  return { code: ran.code, stdout: ran.stdout, stderr: ran.stderr };
}

const checkedVersions = new Map<string, Promise<void>>();

/** Once per git binary and PATH: present and recent enough, else a GitUnavailableError saying which. */
function ensureUsableGit(setup: GitSetup): Promise<void> {
  const key = `${setup.binary}\0${setup.env.PATH ?? ""}`;
  let check = checkedVersions.get(key);
  if (!check) {
    check = privateGit(setup, ["--version"]).then(({ stdout }) => {
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
    const result = await privateGit(this.setup, [...this.leading(), ...args], call);
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
    const { setup } = this;
    const ran = await runGitScript(body, params, this.leading(), {
      cwd: setup.workTree,
      env: setup.env,
      binary: setup.binary,
      ...(call.index === undefined ? {} : { extraEnv: { GIT_INDEX_FILE: call.index } }),
    });
    return output(setup, ran);
  }

  private leading(): string[] {
    return [`--git-dir=${this.setup.gitDir}`, `--work-tree=${this.setup.workTree}`];
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
