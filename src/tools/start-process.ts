import { promises as fs } from "node:fs";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { sandboxSpawnOptions } from "../safety/sandbox/sandboxed-command.js";
import { buildCommandEnv } from "../services/commands/command-env.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import type { ProcessSummary } from "../services/processes/background-processes.js";
import { processesFor } from "../services/processes/processes-source.js";
import { scopeOf } from "./tool-scope.js";

export const NO_PROCESSES = "background processes are not available in this session; use execute_command for commands that exit on their own.";

/** One line on where a process stands. */
export function stateLine(p: ProcessSummary): string {
  if (p.state === "running") return `State: running (id ${p.id}, name "${p.name}")`;
  const how = p.exitCode !== null ? `exit code ${p.exitCode}` : `killed by ${p.signal ?? "a signal"}`;
  return p.state === "stopped"
    ? `State: stopped by stop_process (id ${p.id}, name "${p.name}")`
    : `State: EXITED on its own, ${how} (id ${p.id}, name "${p.name}")`;
}

export function outputBlock(label: string, text: string): string[] {
  return [label, text.trim() === "" ? "(no output yet)" : text.replace(/\n+$/, "")];
}

export interface StartProcessOptions {
  /** The environment secrets are filtered from; defaults to this process's. */
  parentEnv?: NodeJS.ProcessEnv;
}

export function createStartProcessTool(base: ToolNeeds<"processes" | "sandbox">, options: StartProcessOptions = {}) {
  const schema = z.object({
    command: z.string().min(1).describe("Shell command (bash -c) that keeps running, e.g. a dev server: `npm run dev`, `node server.js`."),
    cwd: z.string().optional().describe('Folder to run in, relative to the workspace root (e.g. "app"). Default: the workspace root.'),
    name: z.string().max(40).optional().describe('A short name to refer to it by (e.g. "web"); default its id (p1, p2, ...).'),
  });
  return tool(
    async ({ command, cwd, name }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const sandbox = sandboxSpawnOptions(deps.root, deps.sandbox);
      const processes = processesFor(deps.processes, config);
      if (!processes) return failure(NO_PROCESSES);
      const resolved = await resolveWorkspacePath(deps.root, cwd ?? ".");
      if (!resolved.ok) return failure(`cwd: ${resolved.error}`);
      const isDir = await fs.stat(resolved.abs).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!isDir) return failure(`cwd "${resolved.rel}" is not an existing folder; call list_directory to find the folder, or omit cwd.`);
      const started = await processes.start({
        command,
        cwd: resolved.abs,
        cwdLabel: resolved.rel,
        ...(name !== undefined ? { name } : {}),
        env: buildCommandEnv(options.parentEnv ?? process.env),
        ...(sandbox ? { sandbox } : {}),
      });
      if (!started.ok) return failure(`${started.error}.`);
      const p = started.process;
      if (p.state !== "running") {
        return failure(
          [`The process ended right after it started: \`${command}\``, `cwd: ${resolved.rel}`, stateLine(p), ...outputBlock("Output:", started.output)].join(
            "\n",
          ),
        );
      }
      return success(
        [
          `Started in the background: \`${command}\``,
          `cwd: ${resolved.rel}`,
          stateLine(p),
          ...outputBlock("Output so far:", started.output),
          `Next: wait_for_process (a port or an output pattern) until it is ready; later execute_command calls reach it at 127.0.0.1; read_process_output shows new output; stop_process ends it. It is stopped when the session ends.`,
        ].join("\n"),
      );
    },
    {
      name: "start_process",
      description:
        "Start a long-running command in the background (a dev server, a watcher) and return at once. It runs in the same sandbox as execute_command, " +
        "and it and later execute_command calls share one loopback network, so curl or tests can reach it at 127.0.0.1. Use wait_for_process before using it.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
