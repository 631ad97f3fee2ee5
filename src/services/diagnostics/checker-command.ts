import type { SandboxSpawnOptions } from "../../safety/sandbox/sandboxed-command.js";
import { runCommand } from "../commands/run-command.js";

export interface CheckerRunOptions {
  sandbox: SandboxSpawnOptions;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Runs one of the project's checkers (ESLint, a configured command) like a reviewer's command: read-only, no network. */
export function runChecker(root: string, command: string, outputLimitChars: number, o: CheckerRunOptions): ReturnType<typeof runCommand> {
  return runCommand({
    command,
    cwd: root,
    env: o.env,
    timeoutMs: o.timeoutMs,
    outputLimitChars,
    sandbox: { ...o.sandbox, workspaceAccess: "read-only", allowNetwork: false },
    ...(o.signal ? { signal: o.signal } : {}),
  });
}
