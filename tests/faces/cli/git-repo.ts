import { spawnSync } from "node:child_process";
import os from "node:os";

/** No global or system git config: what runs must work without a person's git identity or settings. */
export const NO_GIT_CONFIG = { GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" };

/** Real git as a test's person runs it (an identity of its own, HOME in the test's folder); throws on failure. */
export function git(cwd: string, args: string[], home: string): string {
  const r = spawnSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home, ...NO_GIT_CONFIG },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A repository on branch main with the folder's files as its first commit. */
export function initRepo(root: string): void {
  git(root, ["init", "-q", "-b", "main"], root);
  git(root, ["add", "-A"], root);
  git(root, ["commit", "-q", "-m", "initial"], root);
}
