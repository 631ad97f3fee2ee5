import { runGit } from "../../platform/git.js";

/** What one git call gave back. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** git was not found. */
  missing: boolean;
}

/**
 * Runs git in `cwd` on the person's repository (the "repository" scope of src/platform/git.ts: no hooks, fsmonitor,
 * signing or filter of the repository's own config; their global config and identity kept), time-boxed so that a hung
 * git (a lock held elsewhere) cannot hang a session. `identity` adds GIT_AUTHOR_* / GIT_COMMITTER_* variables. A git
 * that is missing is code 127 and `missing`.
 */
export async function git(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  identity: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<GitResult> {
  const ran = await runGit(args, { scope: "repository", cwd, env, extraEnv: identity, timeoutMs });
  return { code: ran.code, stdout: ran.stdout.toString("utf8"), stderr: ran.stderr, missing: ran.missing };
}

/** The first line git wrote to stderr, for a one-line message. */
export function firstLine(result: GitResult): string {
  return (result.stderr.split("\n").find((l) => l.trim() !== "") ?? `git exited ${result.code}`).replace(/^(fatal|error): /, "").trim();
}
