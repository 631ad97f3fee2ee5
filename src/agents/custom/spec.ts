import { z } from "zod";
import { caps, clip } from "../../core/index.js";
import { renderBrief, stoppedBecause } from "../brief.js";
import type { AgentSpec } from "../types.js";
import type { CustomAgentDefinition } from "./definition.js";
import { customAgentSystemPrompt } from "./prompt.js";
import { FILE_CHANGE_TOOLS } from "../../tools/index.js";

const submitResultSchema = z.object({
  status: z.enum(["done", "failed"]).default("done").describe('"done" when the step is complete, "failed" when it cannot be completed.'),
  summary: z.string().describe("What you did and found, in two or three sentences; or why the step failed."),
  findings: z
    .array(
      z.object({
        source: z.string().describe("Where this comes from: a file path with line numbers, or a command."),
        note: z.string().describe("The fact, in one or two sentences."),
      }),
    )
    .default([])
    .describe("Facts the next steps need, each with its source."),
});

export const SUBMIT_RESULT_TOOL = "submit_result";

/** A custom agent as the graph runs it: a spec like the built-in ones, plus what the planner and listings show. */
export interface CustomAgentSpec extends AgentSpec {
  description: string;
  definition: CustomAgentDefinition;
}

/**
 * The spec for one agent file. Its commands may write the workspace only when it may also edit files (an agent
 * that runs commands but cannot edit is a checker, like the reviewer). A plain-text ending is its summary.
 */
export function customAgentSpec(def: CustomAgentDefinition): CustomAgentSpec {
  const canEdit = def.tools.some((t) => FILE_CHANGE_TOOLS.has(t));
  return {
    name: def.name,
    description: def.description,
    definition: def,
    tools: def.tools,
    ...(def.extraTools.length > 0 ? { extraTools: def.extraTools } : {}),
    finishTool: {
      name: SUBMIT_RESULT_TOOL,
      description: "Finish your step: report whether it is done or failed, a short summary and the findings with their sources.",
      schema: submitResultSchema,
    },
    commandAccess: def.tools.includes("execute_command") && canEdit ? "read-write" : "read-only",
    requireFinishTool: false,
    systemPrompt: (workspace, tools) => customAgentSystemPrompt(def, workspace, tools),
    brief: (ctx) => renderBrief(ctx),
    toReport(outcome, stepId) {
      const parsed = outcome.finish ? submitResultSchema.safeParse(outcome.finish) : null;
      const finished = parsed?.success ? parsed.data : null;
      const base = {
        stepId,
        agent: def.name,
        filesChanged: outcome.filesChanged,
        commands: outcome.commands.filter((c) => !c.refused).map((c) => ({ command: clip(c.command, 200), exitCode: c.exitCode })),
        modelCalls: outcome.modelCalls,
      };
      if ((outcome.stopReason === "call_limit" || outcome.stopReason === "loop" || outcome.stopReason === "budget") && !finished) {
        return { ...base, status: "incomplete", summary: `${stoppedBecause(outcome)} Last note: ${clip(outcome.lastText, caps.result)}`, findings: [] };
      }
      return {
        ...base,
        status: finished?.status === "failed" ? "failed" : "done",
        summary: clip(finished?.summary ?? outcome.lastText, caps.text),
        findings: (finished?.findings ?? []).slice(0, 12).map((f) => ({ source: clip(f.source, 200), note: clip(f.note, 500) })),
      };
    },
  };
}
