import { execFile } from "node:child_process";
import os from "node:os";

/** What one git call gave back. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Settings on every call, so a repository's own config cannot make our commits run code (hooks, fsmonitor) or sign
 * (a signing key that asks for a passphrase would hang the run).
 */
const SAFE_CONFIG: readonly string[] = [
  `core.hooksPath=${os.devNull}`,
  "core.fsmonitor=false",
  "commit.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "core.quotePath=false",
].flatMap((s) => ["-c", s]);

/** Variables that would point git somewhere else than the folder we name (a caller's GIT_DIR, GIT_INDEX_FILE). */
const REDIRECTING = /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|CEILING_DIRECTORIES|PREFIX)$/;

/** The caller's environment without what redirects git, plus `extra` (an identity). */
export function gitEnv(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!REDIRECTING.test(k)) clean[k] = v;
  return { ...clean, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...extra };
}

/**
 * Runs the real git CLI in `cwd` with arguments passed as they are (no shell), time-boxed so that a hung git (a lock
 * held elsewhere) cannot hang a session. A git that is missing is code 127.
 */
export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile("git", [...SAFE_CONFIG, ...args], { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (!error) return resolve({ code: 0, stdout, stderr });
      const code = (error as { code?: unknown }).code;
      resolve({ code: typeof code === "number" ? code : 127, stdout, stderr: stderr || error.message });
    });
  });
}

/** The first line git wrote to stderr, for a one-line message. */
export function firstLine(result: GitResult): string {
  return (result.stderr.split("\n").find((l) => l.trim() !== "") ?? `git exited ${result.code}`).replace(/^(fatal|error): /, "").trim();
}
