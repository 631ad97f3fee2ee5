import { z } from "zod";
import { caps, clip } from "../../core/index.js";
import { renderBrief, stoppedBecause } from "../brief.js";
import type { AgentSpec } from "../types.js";
import { PROCESS_TOOLS } from "../../tools/index.js";
import { coderSystemPrompt } from "./prompt.js";

const submitWorkSchema = z.object({
  status: z.enum(["done", "blocked"]).describe('"done" when the step is complete, "blocked" when it cannot be completed.'),
  summary: z.string().describe("What you changed, which command proves it and its result; or why you are blocked."),
});

export const coderSpec: AgentSpec = {
  name: "coder",
  tools: [
    "read_file",
    "list_directory",
    "search_code",
    "codebase_search",
    "write_file",
    "edit_file",
    "execute_command",
    ...PROCESS_TOOLS,
    "load_skill",
    "fetch_url",
    "web_search",
  ],
  finishTool: {
    name: "submit_work",
    description: "Finish your coding step: report whether it is done or blocked and summarize the change and its proof.",
    schema: submitWorkSchema,
  },
  commandAccess: "read-write",
  requireFinishTool: false,
  systemPrompt: coderSystemPrompt,
  brief(ctx) {
    const extra: string[] = [];
    const review = ctx.lastReview;
    if (ctx.step.fixesReview && review && review.decision === "changes_requested") {
      extra.push("", "The reviewer requested these changes; fix every one of them:");
      for (const p of review.problems) {
        extra.push(`- ${p.file ? `${p.file}: ` : ""}${p.problem}${p.fix ? ` (suggested fix: ${p.fix})` : ""}`);
      }
      if (review.problems.length === 0) extra.push(`- ${review.summary}`);
    }
    return renderBrief(ctx, extra);
  },
  toReport(outcome, stepId) {
    const parsed = outcome.finish ? submitWorkSchema.safeParse(outcome.finish) : null;
    const finished = parsed?.success ? parsed.data : null;
    const status =
      (outcome.stopReason === "call_limit" || outcome.stopReason === "loop" || outcome.stopReason === "budget") && !finished
        ? "incomplete"
        : finished?.status === "blocked"
          ? "failed"
          : "done";
    const summary =
      status === "incomplete"
        ? `${stoppedBecause(outcome)} Last note: ${clip(outcome.lastText, caps.result)}`
        : clip(finished?.summary ?? outcome.lastText, caps.text);
    return {
      stepId,
      agent: "coder",
      status,
      summary,
      filesChanged: outcome.filesChanged,
      commands: outcome.commands.filter((c) => !c.refused).map((c) => ({ command: clip(c.command, 200), exitCode: c.exitCode })),
      findings: [],
      modelCalls: outcome.modelCalls,
    };
  },
};
