import { z } from "zod";
import { caps, clip } from "../../core/index.js";
import { renderBrief, stoppedBecause } from "../brief.js";
import type { AgentSpec } from "../types.js";
import { PROCESS_TOOLS } from "../../tools/index.js";
import { reviewerSystemPrompt } from "./prompt.js";

const submitReviewSchema = z.object({
  decision: z.enum(["approve", "changes_requested"]).describe('"approve" if the work meets the task, else "changes_requested".'),
  summary: z.string().describe("One or two sentences: what you checked and the result."),
  problems: z
    .array(
      z.object({
        file: z.string().optional().describe("The file the problem is in, if any."),
        problem: z.string().describe("What is wrong, concretely."),
        fix: z.string().optional().describe("How to fix it."),
      }),
    )
    .default([])
    .describe("Concrete problems to fix; empty when approving."),
});

export const reviewerSpec: AgentSpec = {
  name: "reviewer",
  tools: ["read_file", "list_directory", "search_code", "execute_command", "project_diagnostics", ...PROCESS_TOOLS, "load_skill"],
  finishTool: {
    name: "submit_review",
    description: "Finish your review with a verdict: approve, or changes_requested with concrete problems.",
    schema: submitReviewSchema,
  },
  commandAccess: "read-only",
  requireFinishTool: true,
  systemPrompt: reviewerSystemPrompt,
  brief: (ctx) => renderBrief(ctx, ["", "Review the work against the overall task and the acceptance criteria. Run the tests or checks that prove it."]),
  toReport(outcome, stepId) {
    const parsed = outcome.finish ? submitReviewSchema.safeParse(outcome.finish) : null;
    const verdict = parsed?.success ? parsed.data : null;
    const base = {
      stepId,
      agent: "reviewer" as const,
      filesChanged: [],
      commands: outcome.commands.filter((c) => !c.refused).map((c) => ({ command: clip(c.command, 200), exitCode: c.exitCode })),
      findings: [],
      modelCalls: outcome.modelCalls,
    };
    if (!verdict) {
      const why = outcome.stopReason === "text" || outcome.stopReason === "finished" ? "Review ended without a verdict." : stoppedBecause(outcome);
      return { ...base, status: "incomplete", summary: `${why} Last note: ${clip(outcome.lastText, caps.result)}` };
    }
    const problems = verdict.problems.slice(0, 12).map((p) => ({
      ...(p.file ? { file: clip(p.file, 200) } : {}),
      problem: clip(p.problem, 400),
      ...(p.fix ? { fix: clip(p.fix, 300) } : {}),
    }));
    return {
      ...base,
      status: "done",
      summary: clip(verdict.summary, caps.text),
      review: { stepId, decision: verdict.decision, summary: clip(verdict.summary, caps.text), problems },
    };
  },
};
