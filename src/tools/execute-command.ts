import { promises as fs } from "node:fs";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { sandboxDescription, sandboxNotes } from "../safety/sandbox/sandbox-notes.js";
import { OutputStreamCap } from "../services/commands/output-stream-cap.js";
import { sandboxSpawnOptions } from "../safety/sandbox/sandboxed-command.js";
import { buildCommandEnv } from "../services/commands/command-env.js";
import { DEFAULT_OUTPUT_LIMIT_CHARS } from "./read-file.js";
import { stripRedundantCd } from "./redundant-cd.js";
import { processesFor } from "../services/processes/processes-source.js";
import { runCommand, type RunCommandResult } from "../services/commands/run-command.js";
import { failure, type ToolResult } from "./tool-result.js";
import type { ToolArtifact, ToolNeeds } from "./types.js";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import { scopeOf } from "./tool-scope.js";

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function statusLine(run: RunCommandResult, timeoutMs: number, maxMs: number): string {
  if (run.timedOut) {
    return (
      `Timed out after ${seconds(timeoutMs)}: the command and all processes it started were killed. ` +
      "If it is a server, watcher or interactive program, run something that exits on its own instead (e.g. a single test run); " +
      `if it only needs more time, retry with a larger timeoutSeconds (max ${Math.round(maxMs / 1000)}).`
    );
  }
  if (run.aborted) return "Cancelled: the run was stopped, and the command and all processes it started were killed.";
  if (run.exitCode === null) {
    return `Killed by signal ${run.signal ?? "unknown"} (no exit code): the command did not finish normally.`;
  }
  if (run.exitCode !== 0) {
    return `Exit code: ${run.exitCode}. The command FAILED (nonzero exit code); read the output below to find out why.`;
  }
  return "Exit code: 0 (success)";
}

export interface ExecuteCommandOptions {
  /** The environment secrets are filtered from; defaults to this process's. */
  parentEnv?: NodeJS.ProcessEnv;
}

export function createExecuteCommandTool(
  base: ToolNeeds<"clock" | "commandTimeoutMs" | "emit" | "maxCommandTimeoutMs" | "outputLimitChars" | "processes" | "sandbox">,
  options: ExecuteCommandOptions = {},
) {
  const maxMs = base.maxCommandTimeoutMs ?? MAX_COMMAND_TIMEOUT_MS;
  const defaultMs = Math.min(base.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, maxMs);
  // What the model is told about the sandbox (an agent's tools leave the network to its instructions: networkFromRun).
  const described = sandboxSpawnOptions(base.root, base.sandbox);
  const schema = z.object({
    command: z
      .string()
      .min(1)
      .describe(
        "Shell command, run with `bash -c` (pipes, && and globs work). It must finish on its own: stdin is closed, and anything still running when it ends or times out is killed.",
      ),
    cwd: z
      .string()
      .optional()
      .describe('Folder to run in, relative to the workspace root (e.g. "app"). Default: the workspace root. Do not also "cd" into it in the command.'),
    timeoutSeconds: z
      .number()
      .positive()
      .optional()
      .describe(`Kill the command after this many seconds. Default ${Math.round(defaultMs / 1000)}, max ${Math.round(maxMs / 1000)}.`),
  });

  return tool(
    async ({ command, cwd, timeoutSeconds }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const limit = deps.outputLimitChars ?? DEFAULT_OUTPUT_LIMIT_CHARS;
      const sandbox = sandboxSpawnOptions(deps.root, deps.sandbox);
      const resolved = await resolveWorkspacePath(deps.root, cwd ?? ".");
      if (!resolved.ok) return failure(`cwd: ${resolved.error}`);
      const isDir = await fs.stat(resolved.abs).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!isDir) {
        return failure(`cwd "${resolved.rel}" is not an existing folder; call list_directory to find the folder, or omit cwd to run in the workspace root.`);
      }
      const notes: string[] = [];
      const stripped = await stripRedundantCd(command, deps.root, resolved.abs);
      if (stripped.removed) notes.push(`Note: removed the leading "${stripped.removed}" because cwd is already "${resolved.rel}".`);
      let timeoutMs = timeoutSeconds === undefined ? defaultMs : Math.round(timeoutSeconds * 1000);
      if (timeoutMs > maxMs) {
        notes.push(`Note: timeoutSeconds ${timeoutSeconds} is above the maximum; used ${Math.round(maxMs / 1000)}.`);
        timeoutMs = maxMs;
      }

      const watchers = new OutputStreamCap({
        forward: (stream, chunk) => deps.emit?.({ type: "command_output", stream, chunk }),
        forwardTail: ({ lines, totalChars }) => deps.emit?.({ type: "command_output_tail", lines, totalChars }),
        clock: deps.clock,
      });
      // Once a background process opened the session's loopback network, commands join it to reach the process.
      const shared = processesFor(deps.processes, config)?.sharedNetwork();
      const run = await runCommand({
        command: stripped.command,
        cwd: resolved.abs,
        env: buildCommandEnv(options.parentEnv ?? process.env),
        timeoutMs,
        outputLimitChars: limit,
        onOutput: (stream, chunk) => watchers.push(stream, chunk),
        signal: config?.signal,
        sandbox: sandbox && shared ? { ...sandbox, network: shared } : sandbox,
      }).finally(() => watchers.end());
      const artifact: ToolArtifact = {
        ok: run.exitCode === 0 && !run.timedOut && !run.aborted,
        command: { command, cwd: resolved.rel, exitCode: run.exitCode, timedOut: run.timedOut, durationMs: run.durationMs },
      };
      if (run.spawnError) {
        const check = sandbox ? "Check that bubblewrap is installed (`mini-cursor doctor` says)." : "Check that bash exists and cwd is readable.";
        return [`Error: the command could not be started (${run.spawnError}). ${check}`, { ...artifact, ok: false }];
      }
      if (run.strayProcesses > 0) {
        notes.push(
          `Note: ${run.strayProcesses} background process(es) the command left running were killed; processes cannot outlive execute_command, so start a server and the commands that use it in one command.`,
        );
      }
      if (sandbox) notes.push(...sandboxNotes(run.output, run.exitCode, sandbox));
      if (run.omittedChars > 0) notes.push(`Note: the output was long; only its beginning and end are shown.`);
      const output = run.output.trim() === "" ? "(no output)" : run.output.replace(/\n+$/, "");
      const content = [
        `$ ${stripped.command}`,
        `cwd: ${resolved.rel}`,
        statusLine(run, timeoutMs, maxMs),
        `Duration: ${seconds(run.durationMs)}`,
        ...notes,
        "Output (stdout and stderr together):",
        output,
      ].join("\n");
      return [content, artifact];
    },
    {
      name: "execute_command",
      description:
        "Run a shell command (bash -c) in the workspace, e.g. tests, builds, linters, git, package managers. " +
        "Returns the exit code, duration and combined stdout+stderr (long output keeps its beginning and end). " +
        "Commands cannot read input and must exit on their own; anything still running at the end or after the timeout is killed. " +
        "Secrets are removed from the environment; CI=1 and NO_COLOR=1 are set. Use cwd instead of a leading cd." +
        (described ? ` ${sandboxDescription(described, !(base.sandbox?.kind === "bubblewrap" && base.sandbox.networkFromRun === true))}` : ""),
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
