import { z } from "zod";
import { caps, clip } from "../../core/index.js";
import { renderBrief, stoppedBecause } from "../brief.js";
import type { AgentSpec } from "../types.js";
import { researcherSystemPrompt } from "./prompt.js";

const submitFindingsSchema = z.object({
  summary: z.string().describe("Two or three sentences answering the step's goal."),
  findings: z
    .array(
      z.object({
        source: z.string().describe("Where this comes from: a file path with line numbers, or a command."),
        note: z.string().describe("The fact, in one or two sentences."),
      }),
    )
    .describe("Facts the next steps need, each with its source."),
});

export const researcherSpec: AgentSpec = {
  name: "researcher",
  tools: ["read_file", "list_directory", "search_code", "codebase_search", "memory_search", "load_skill", "fetch_url", "web_search"],
  finishTool: {
    name: "submit_findings",
    description: "Finish your research step: report a short summary and the findings with their sources.",
    schema: submitFindingsSchema,
  },
  commandAccess: "read-write",
  requireFinishTool: false,
  systemPrompt: researcherSystemPrompt,
  brief: (ctx) => renderBrief(ctx),
  toReport(outcome, stepId) {
    const parsed = outcome.finish ? submitFindingsSchema.safeParse(outcome.finish) : null;
    const finished = parsed?.success ? parsed.data : null;
    const base = { stepId, agent: "researcher" as const, filesChanged: [], commands: [], modelCalls: outcome.modelCalls };
    if ((outcome.stopReason === "call_limit" || outcome.stopReason === "loop" || outcome.stopReason === "budget") && !finished) {
      return { ...base, status: "incomplete", summary: `${stoppedBecause(outcome)} Last note: ${clip(outcome.lastText, caps.result)}`, findings: [] };
    }
    return {
      ...base,
      status: "done",
      summary: clip(finished?.summary ?? outcome.lastText, caps.text),
      findings: (finished?.findings ?? []).slice(0, 12).map((f) => ({ source: clip(f.source, 200), note: clip(f.note, 500) })),
    };
  },
};
