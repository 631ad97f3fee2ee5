import { z } from "zod";
import { agentNameSchema } from "./agents.js";
import { reportedCommandSchema } from "./commands.js";
import { reviewSchema } from "./plan.js";

/** What a sub-agent hands back to the planner: a compact report, never its transcript. */
export const agentReportSchema = z.object({
  stepId: z.string(),
  agent: agentNameSchema,
  status: z.enum(["done", "failed", "incomplete"]),
  summary: z.string(),
  filesChanged: z.array(z.string()).default([]),
  commands: z.array(reportedCommandSchema).default([]),
  findings: z.array(z.object({ source: z.string(), note: z.string() })).default([]),
  review: reviewSchema.optional(),
  modelCalls: z.number().default(0),
});
export type AgentReport = z.infer<typeof agentReportSchema>;
