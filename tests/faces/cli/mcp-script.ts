import { toolResults, type ScriptedReply, type ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

/** A call the scripted coder makes, in order; then it submits its work. */
export interface McpCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * A scripted model for MCP sessions: the planner plans one coder step and finishes once it reported (the final review approves); the coder
 * makes `calls` one by one (what it gets back is in the requests), then submits. `onCoder` sees each coder request.
 */
export function mcpScript(calls: readonly McpCall[], onCoder?: (req: ScriptedRequest) => void) {
  return (req: ScriptedRequest): ScriptedReply => {
    const role = roleOf(req);
    if (role === "planner") {
      const context = req.messages
        .filter((m) => m.role === "user")
        .map((m) => m.content)
        .join("\n");
      if (context.includes("There is no plan yet")) {
        return {
          toolCalls: [
            {
              name: "update_plan",
              args: { remainingSteps: [{ agent: "coder", goal: "Use the MCP tools", acceptanceCriteria: ["the tools ran"] }], finished: false },
            },
          ],
        };
      }
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "The MCP tools ran." } }] };
    }
    if (role === "coder") {
      onCoder?.(req);
      const next = calls[toolResults(req).length];
      return { toolCalls: [next ?? { name: "submit_work", args: { status: "done", summary: "Called the MCP tools." } }] };
    }
    if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "The MCP tools ran." } }] };
    return { content: "Nothing to do." };
  };
}

/** Processes whose command line contains `marker` (the servers of one test are started with it as an argument). */
export async function processesWith(marker: string): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8");
      if (cmdline.split("\0").includes(marker)) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
