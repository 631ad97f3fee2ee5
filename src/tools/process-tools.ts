import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BackgroundProcesses, ProcessSummary } from "../services/processes/background-processes.js";
import { processesFor } from "../services/processes/processes-source.js";
import { NO_PROCESSES, outputBlock, stateLine } from "./start-process.js";
import { errorMessage } from "../platform/error-info.js";

export const DEFAULT_WAIT_SECONDS = 30;
export const MAX_WAIT_SECONDS = 300;

const processRef = z.string().min(1).describe("The process's id (p1) or name, as start_process returned it.");

function unknown(processes: BackgroundProcesses, ref: string): ToolResult {
  const known = processes.list().map((p) => `${p.id} "${p.name}" (${p.state})`);
  return failure(
    `no background process "${ref}" in this session. ${known.length > 0 ? `Known: ${known.join(", ")}.` : "None was started; use start_process."}`,
  );
}

/** Runs `body` with the registry of the call's session (or run), or tells the model there is none. */
function withProcesses(
  deps: ToolNeeds<"processes">,
  config: RunnableConfig | undefined,
  body: (processes: BackgroundProcesses) => Promise<ToolResult> | ToolResult,
): Promise<ToolResult> | ToolResult {
  const processes = processesFor(deps.processes, config);
  return processes ? body(processes) : failure(NO_PROCESSES);
}

export function createReadProcessOutputTool(deps: ToolNeeds<"processes">) {
  return tool(
    ({ process: ref }, config): Promise<ToolResult> | ToolResult =>
      withProcesses(deps, config, (processes) => {
        const read = processes.read(ref);
        if (!read) return unknown(processes, ref);
        const note = read.omitted > 0 ? [`Note: the new output was long; ${read.omitted} characters in its middle are left out.`] : [];
        return success([stateLine(read.process), ...note, ...outputBlock("Output since the last read (stdout and stderr together):", read.output)].join("\n"));
      }),
    {
      name: "read_process_output",
      description:
        "Show a background process's output since the last time it was read (start_process counts as a read), with its state (running or exited with its code).",
      schema: z.object({ process: processRef }),
      responseFormat: "content_and_artifact",
    },
  );
}

export function createWaitForProcessTool(deps: ToolNeeds<"processes">) {
  const schema = z.object({
    process: processRef,
    pattern: z.string().min(1).optional().describe('A regular expression; ready once a line of its output matches (e.g. "listening on").'),
    port: z.number().int().min(1).max(65535).optional().describe("Ready once 127.0.0.1:port accepts connections."),
    timeoutSeconds: z.number().positive().optional().describe(`Give up after this many seconds. Default ${DEFAULT_WAIT_SECONDS}, max ${MAX_WAIT_SECONDS}.`),
  });
  return tool(
    async ({ process: ref, pattern, port, timeoutSeconds }, config): Promise<ToolResult> =>
      withProcesses(deps, config, async (processes) => {
        if (pattern === undefined && port === undefined)
          return failure("give a pattern (an output line to wait for) or a port (to wait until it accepts connections), or both.");
        let regex: RegExp | undefined;
        try {
          regex = pattern === undefined ? undefined : new RegExp(pattern);
        } catch (error) {
          return failure(`pattern is not a valid regular expression (${errorMessage(error)}).`);
        }
        const seconds = Math.min(timeoutSeconds ?? DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
        const waited = await processes.waitFor(ref, {
          ...(regex ? { pattern: regex } : {}),
          ...(port !== undefined ? { port } : {}),
          timeoutMs: seconds * 1000,
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        if (!waited) return unknown(processes, ref);
        const took = `${(waited.elapsedMs / 1000).toFixed(1)} s`;
        const what = [pattern !== undefined ? `a line matching /${pattern}/` : "", port !== undefined ? `port ${port} answering` : ""]
          .filter(Boolean)
          .join(" or ");
        const recent = processes.read(ref)?.output ?? "";
        if (waited.outcome === "ready")
          return success(
            [`Ready after ${took}: ${waited.matched ?? what}.`, stateLine(waited.process), ...outputBlock("Output since the last read:", recent)].join("\n"),
          );
        const head =
          waited.outcome === "timeout"
            ? `NOT READY: timed out after ${took} waiting for ${what}. The process is still running; read its output below, then wait longer, fix the command, or stop it.`
            : waited.outcome === "exited"
              ? `NOT READY: the process ended before ${what} (after ${took}).`
              : "Cancelled: the run was stopped while waiting.";
        return failure([head, stateLine(waited.process), ...outputBlock("Output since the last read:", recent)].join("\n"));
      }),
    {
      name: "wait_for_process",
      description:
        "Wait until a background process is ready: a line of its output matches a pattern, or a 127.0.0.1 port accepts connections. " +
        "Returns at once when it is (or when the process exits); otherwise after the timeout, saying so.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}

export function createStopProcessTool(deps: ToolNeeds<"processes">) {
  return tool(
    async ({ process: ref }, config): Promise<ToolResult> =>
      withProcesses(deps, config, async (processes) => {
        const before = processes.find(ref);
        if (!before) return unknown(processes, ref);
        const last = processes.read(ref)?.output ?? "";
        const after = await processes.stop(ref);
        const line =
          before.state === "running"
            ? `Stopped "${before.name}" (${before.id}) and every process it started.`
            : `"${before.name}" (${before.id}) was not running.`;
        return success([line, stateLine(after ?? before), ...outputBlock("Output since the last read:", last)].join("\n"));
      }),
    {
      name: "stop_process",
      description: "Stop a background process and everything it started.",
      schema: z.object({ process: processRef }),
      responseFormat: "content_and_artifact",
    },
  );
}

function row(p: ProcessSummary): string {
  const state =
    p.state === "running" ? "running" : p.state === "stopped" ? "stopped" : `exited (${p.exitCode !== null ? `code ${p.exitCode}` : (p.signal ?? "signal")})`;
  return `- ${p.id} "${p.name}": ${state}; \`${p.command}\` in ${p.cwd}; ${p.unreadChars} characters of output unread`;
}

export function createListProcessesTool(deps: ToolNeeds<"processes">) {
  return tool(
    (_input, config): Promise<ToolResult> | ToolResult =>
      withProcesses(deps, config, (processes) => {
        const all = processes.list();
        return success(all.length === 0 ? "No background processes in this session." : ["Background processes of this session:", ...all.map(row)].join("\n"));
      }),
    {
      name: "list_processes",
      description: "List this session's background processes: id, name, state, command and unread output.",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    },
  );
}
